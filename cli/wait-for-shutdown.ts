import type { Logger } from 'pino';

/** Blocks until SIGINT/SIGTERM, then runs `close` once and resolves. */
export function waitForShutdown(close: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      close().finally(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * What a stop gets beyond `sync.graceSeconds` (in which in-flight jobs finish or are cancelled) for
 * closing the workers' and Redis connections. Past it the process exits whatever is still open.
 */
export const SHUTDOWN_MARGIN_MS = 5_000;

/**
 * The exit code of a stop that reached its deadline with something not settled (Redis unreachable, so
 * BullMQ's Worker.close() waits for a reconnect). Nothing is lost: the jobs it held are taken back by the
 * next worker (stalled-job recovery, the in-flight sweep).
 */
export const EXIT_UNSETTLED = 3;

/** The one shutdown deadline, from the signal: `sync.graceSeconds` plus SHUTDOWN_MARGIN_MS. */
export function shutdownDeadlineMs(graceSeconds: number): number {
  return graceSeconds * 1000 + SHUTDOWN_MARGIN_MS;
}

export interface Stoppable {
  stop(): Promise<void>;
  /** What stop() still waits for, by name. */
  unsettled(): string[];
  /** Gives up on stop(): forces closes and drops connections, without waiting. */
  abandon(): void;
}

/**
 * Runs `target.stop()` bounded by `deadlineMs`. Resolves 0 when it settled in time (a rejection is
 * logged: the stop is over either way); else abandons it, logs one line naming what did not settle, and
 * resolves EXIT_UNSETTLED. The caller then exits the process: what was abandoned may still hold sockets
 * and timers that would keep it alive.
 */
export async function stopWithin(target: Stoppable, deadlineMs: number, logger: Logger): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
  const stopped = target.stop().then(
    () => 'settled' as const,
    (err: unknown) => {
      logger.error({ err }, 'shutdown error');
      return 'settled' as const;
    },
  );
  const outcome = await Promise.race([stopped, deadline]);
  clearTimeout(timer);
  if (outcome === 'settled') return 0;
  const unsettled = target.unsettled();
  target.abandon();
  logger.error(
    { deadlineMs, unsettled, exitCode: EXIT_UNSETTLED },
    `shutdown deadline passed after ${deadlineMs / 1000} s: exiting with ${EXIT_UNSETTLED}, not closed: ${unsettled.join(', ') || 'nothing named'} ` +
      '(Redis unreachable?); the jobs left active are taken back by the next worker once their locks expire',
  );
  return EXIT_UNSETTLED;
}
