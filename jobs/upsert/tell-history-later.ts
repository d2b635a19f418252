import type { Logger } from 'pino';
import { serializeError } from '../../src/observability/logger.js';

/** The first wait before telling the history again; doubled each time, up to MAX_WAIT_MS. */
const FIRST_WAIT_MS = 500;
const MAX_WAIT_MS = 30_000;
/** How long a process keeps trying before it says the entries are lost (the ledger still holds the writes). */
const GIVE_UP_AFTER_MS = 3_600_000;

/**
 * Tells the records' history again what `tell` could not tell it (Redis went away between SETTLE and the
 * append), in the background, until Redis answers: the outcomes are durable in the ledger, so their
 * entries are owed to `erp-sync history`. Each try fails fast while Redis is away; the wait doubles up
 * to 30 s. After an hour without Redis the entries are given up with an error naming every record (the
 * ledger's entry still names each write: its version, billing id, job and time).
 */
export function tellHistoryLater(
  tell: () => Promise<void>,
  about: { connection: string; entity: string; erpIds: string[] },
  log: Pick<Logger, 'info' | 'error'>,
  clock: { now: () => number } = Date,
): Promise<boolean> {
  const started = clock.now();
  return new Promise((resolve) => {
    const attempt = (waitMs: number) => {
      const timer = setTimeout(() => {
        tell().then(
          () => {
            log.info(about, "the records' history told after Redis came back");
            resolve(true);
          },
          (err: unknown) => {
            if (clock.now() - started < GIVE_UP_AFTER_MS) return attempt(Math.min(waitMs * 2, MAX_WAIT_MS));
            log.error(
              { ...about, err: serializeError(err) },
              "the records' history could not be told within an hour; their writes are in the ledger only",
            );
            resolve(false);
          },
        );
      }, waitMs);
      // Owed, not vital: a process that ends meanwhile is not kept alive for it.
      timer.unref();
    };
    attempt(FIRST_WAIT_MS);
  });
}
