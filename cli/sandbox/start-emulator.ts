import type { RunningSandbox } from '../../sandbox/profiles.js';
import { ConfigError } from '../../src/errors/index.js';
import { ListenError, toListenError } from '../../src/http/listen.js';

/** A running emulator as `erp-sync sandbox` uses it (the billing emulator has no connection entry). */
export type Running = Omit<RunningSandbox, 'demo'>;

export const PORT_HINT = 'choose another with --port';

/** Starts one emulator; a port in use (or a bad host) becomes one line naming the emulator and the fix. */
export async function startEmulator<R extends Running>(
  emulator: string,
  portHint: string,
  start: () => Promise<R>,
  port: number,
  host: string,
): Promise<R> {
  try {
    return await start();
  } catch (caught) {
    const e = toListenError(caught, port, host);
    if (!(e instanceof ListenError)) throw e;
    throw new ConfigError(
      `${e.message} (the ${emulator}; ${e.portProblem ? portHint : 'choose another with --host'})`,
      { cause: e },
    );
  }
}
