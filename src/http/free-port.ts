import { createServer } from 'node:net';

/**
 * A TCP port free on `host` at this moment: the OS picks one for a throwaway listener, which is closed
 * before the port is returned. For starting a child server (redis-server) on a port of its own.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
