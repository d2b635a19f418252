import net from 'node:net';
import { expect } from 'vitest';

/**
 * The unit tier's promise (vitest.config.ts, UNIT_TESTS): no Redis, no sockets. Every socket a file in it
 * opens or listens on fails at once, naming what was attempted, so a file listed there by mistake fails
 * loudly instead of passing only where a Redis or a free port happens to be.
 */
function refuse(what: string): never {
  const file = expect.getState().testPath ?? 'a unit test file';
  throw new Error(
    `${file} ${what}: the unit tier opens no sockets; take the file out of UNIT_TESTS in vitest.config.ts`,
  );
}

net.Socket.prototype.connect = function (...args: unknown[]) {
  const target = typeof args[0] === 'object' ? JSON.stringify(args[0]) : String(args[0]);
  return refuse(`connects a socket (${target})`);
} as typeof net.Socket.prototype.connect;

net.Server.prototype.listen = function () {
  return refuse('listens on a socket');
} as typeof net.Server.prototype.listen;
