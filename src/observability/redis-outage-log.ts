import type { Logger } from 'pino';

/** What ioredis and BullMQ report while Redis cannot be reached (refused, reset, timed out, closed). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return /^Connection is closed\.?$|^connect E[A-Z]+|Stream isn't writeable|Reached the max retries per request limit/.test(
    err.message,
  );
}

/** How often a summary line is written while Redis stays away. */
export const REDIS_OUTAGE_SUMMARY_MS = 10_000;

/** After Redis is back, how long a client's late connection error is taken as the same outage's last. */
export const REDIS_BACK_SETTLE_MS = 2_000;

/**
 * The one place every Redis client of a process (state, producer, each BullMQ worker and queue) reports
 * its connection errors, so that an outage reads as three kinds of line instead of one per client per
 * reconnect attempt (a 30 s outage wrote about 960): one when Redis goes (`Redis unreachable`), a summary
 * every `summaryMs` while it stays away with the errors counted, and one when a client is connected
 * again (`Redis back`). Errors that are not about the connection are the caller's to log.
 */
export class RedisOutageLog {
  private since: number | undefined;
  private errors = 0;
  private sinceSummary = 0;
  private readonly sources = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the last outage ended: a client whose reconnect was already under way may fail once more then. */
  private backAt: number | undefined;

  constructor(
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    private readonly summaryMs = REDIS_OUTAGE_SUMMARY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A client's error: true when it was a connection error, counted here (the caller logs nothing more). */
  error(source: string, err: unknown): boolean {
    if (!isRedisConnectionError(err)) return false;
    // Another client's attempt begun before Redis came back, failing just after: not a new outage.
    if (this.since === undefined && this.backAt !== undefined && this.now() - this.backAt < REDIS_BACK_SETTLE_MS)
      return true;
    this.errors++;
    this.sinceSummary++;
    this.sources.add(source);
    if (this.since === undefined) {
      this.since = this.now();
      this.logger.warn(
        { redis: source, error: (err as Error).message },
        'Redis unreachable; its clients reconnect (a summary follows while it stays away)',
      );
      this.timer = setInterval(() => this.summary(), this.summaryMs);
      this.timer.unref();
    }
    return true;
  }

  /** A client is connected again (its `ready`): the outage, if there was one, is over. */
  back(source: string): void {
    if (this.since === undefined) return;
    const seconds = Math.round((this.now() - this.since) / 100) / 10;
    this.logger.info(
      { redis: source, outageSeconds: seconds, connectionErrors: this.errors },
      `Redis back after ${seconds} s (${this.errors} connection errors meanwhile)`,
    );
    this.stop();
    this.backAt = this.now();
  }

  /** Stops the summaries (the process is closing). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.since = undefined;
    this.errors = 0;
    this.sinceSummary = 0;
    this.sources.clear();
  }

  private summary(): void {
    if (this.since === undefined) return;
    const seconds = Math.round((this.now() - this.since) / 1000);
    this.logger.warn(
      { connectionErrors: this.sinceSummary, totalErrors: this.errors, clients: [...this.sources].sort() },
      `Redis still unreachable after ${seconds} s: ${this.sinceSummary} connection errors in the last ${this.summaryMs / 1000} s`,
    );
    this.sinceSummary = 0;
  }
}
