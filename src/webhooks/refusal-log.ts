import type { Logger } from 'pino';

/** How often refused deliveries are summed up in the log. @defaultValue 60 s */
export const REFUSAL_LOG_EVERY_MS = 60_000;

/**
 * The log of refused webhook deliveries (bad signature, malformed, too large, too many at once), aggregated:
 * the first refusal after a quiet interval is logged at once, the ones after it are counted by vendor and
 * reason and logged as one line per interval, so a flood of forged deliveries cannot flood the log. The
 * metric still counts every delivery. Nothing of a delivery's body or headers is logged.
 */
export class RefusalLog {
  private readonly counts = new Map<string, { count: number; example?: string }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    readonly everyMs = REFUSAL_LOG_EVERY_MS,
  ) {}

  /** One refused delivery of `system` for `reason` (`bad_signature`, …); `detail` is our own text, never theirs. */
  note(system: string, reason: string, detail?: string): void {
    if (!this.timer) {
      this.logger.warn(
        { system, reason, ...(detail ? { detail } : {}) },
        `webhook delivery refused (further refusals are summed every ${this.everyMs / 1000} s)`,
      );
      this.timer = setInterval(() => this.flush(), this.everyMs).unref();
      return;
    }
    const key = `${system} ${reason}`;
    const seen = this.counts.get(key);
    if (seen) seen.count++;
    else this.counts.set(key, { count: 1, ...(detail ? { example: detail } : {}) });
  }

  /** Logs what was counted since the last line; a quiet interval ends the aggregation (the next refusal is logged at once). */
  flush(): void {
    if (!this.counts.size) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const refused = Object.fromEntries(this.counts);
    const total = [...this.counts.values()].reduce((n, c) => n + c.count, 0);
    this.counts.clear();
    this.logger.warn({ refused }, `webhook deliveries refused in the last ${this.everyMs / 1000} s: ${total}`);
  }

  /** Logs what is still counted and stops the timer. */
  close(): void {
    this.flush();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
