import type { Server } from 'node:http';
import { ConfigError } from '../errors/index.js';

/**
 * A server could not listen: the port is taken or privileged, out of range, or the host is not an
 * address of this machine. A ConfigError (a person must choose another port or host), so the CLI
 * prints one line and exits 2; commands add which flag chooses the port.
 */
export class ListenError extends ConfigError {
  constructor(
    message: string,
    readonly reason: 'in-use' | 'permission' | 'bad-port' | 'bad-host',
    readonly port: number,
    readonly host: string,
    cause: unknown,
  ) {
    super(message, { cause, operation: 'listen' });
  }

  /** The port is the problem (taken, privileged or out of range): another port would do. */
  get portProblem(): boolean {
    return this.reason !== 'bad-host';
  }
}

/** server.listen(port, host), resolved once listening; a ListenError for the usual reasons it cannot. */
export async function listen(server: Server, port: number, host: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // An out-of-range port throws here (ERR_SOCKET_BAD_PORT) instead of emitting 'error'.
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    throw toListenError(e, port, host);
  }
}

/** The ListenError for a failed listen (the error itself when it is none of the usual reasons). */
export function toListenError(e: unknown, port: number, host: string): unknown {
  if (e instanceof ListenError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new ListenError(`port ${port} is already in use on ${host}`, 'in-use', port, host, e);
  if (code === 'EACCES')
    return new ListenError(`no permission to listen on port ${port} on ${host}`, 'permission', port, host, e);
  if (code === 'ERR_SOCKET_BAD_PORT')
    return new ListenError(`port ${port} is out of range (0 to 65535)`, 'bad-port', port, host, e);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ListenError(
      `cannot listen on ${host}: not an address of this machine (${code})`,
      'bad-host',
      port,
      host,
      e,
    );
  return e;
}
