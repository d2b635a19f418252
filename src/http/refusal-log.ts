import type { Logger } from 'pino';

/** Log lines of refused credentials a process writes one by one per window; the rest are summed. */
export const REFUSAL_LINES_PER_WINDOW = 10;
export const REFUSAL_LOG_WINDOW_MS = 60_000;

/**
 * Logs refused credentials (the route and the client address, never what was presented), at most
 * `maxLines` lines a window per process: past that they are only counted, and the window after says how
 * many were left out. Someone guessing at full speed thus costs the log a dozen lines a minute, not one
 * per request; the metric (erpsync_http_credentials_refused_total) still counts every one.
 */
export class RefusalLog {
  private windowStart = Number.NEGATIVE_INFINITY;
  private lines = 0;
  private leftOut = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly maxLines = REFUSAL_LINES_PER_WINDOW,
    private readonly windowMs = REFUSAL_LOG_WINDOW_MS,
  ) {}

  record(entry: { route: string; address: string; outcome: 'refused' | 'limited' }): void {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      if (this.leftOut > 0)
        this.logger.warn(
          { leftOut: this.leftOut, windowSeconds: this.windowMs / 1000 },
          `${this.leftOut} more wrong token(s) refused in the previous window, not logged one by one`,
        );
      this.windowStart = now;
      this.lines = 0;
      this.leftOut = 0;
    }
    if (this.lines >= this.maxLines) return void this.leftOut++;
    this.lines++;
    this.logger.warn(entry, entry.outcome === 'limited' ? 'wrong token: address limited' : 'wrong token refused');
  }
}
