import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/http/free-port.js';
import { listen } from '../../src/http/listen.js';
import { createServer as createHttpServer } from 'node:http';

describe('freePort', () => {
  it('given a free port, when a server listens on it, then it can', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createHttpServer();
    await listen(server, port, '127.0.0.1');
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('given a host that is not an address of this machine, when a port is asked for, then it rejects', async () => {
    await expect(freePort('203.0.113.1')).rejects.toThrow();
  });
});
