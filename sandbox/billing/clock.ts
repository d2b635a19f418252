/**
 * The emulator's clock. Every createdAt / updatedAt / "today" the emulator produces comes from here.
 *
 * Default: real time. `set(iso)` (POST /__admin/clock {"now": "<ISO-8601>"}) moves the clock to that
 * instant, after which it ADVANCES WITH REAL ELAPSED TIME from that point (it is not frozen): the
 * clock keeps an offset from the real clock. So two upserts a few ms apart still get increasing
 * timestamps, while a test can place "now" at 23:59:59 of a chosen day. `set(null)` returns to real
 * time. `advance(ms)` moves the offset forward (e.g. "a day later").
 */
export class EmulatorClock {
  private offsetMs = 0;

  constructor(private readonly realNow: () => number = Date.now) {}

  /** Current emulator time, epoch milliseconds. */
  now(): number {
    return this.realNow() + this.offsetMs;
  }

  /** Sets "now" to an instant (ISO-8601 string, Date or epoch ms); `null` returns to real time. */
  set(instant: string | number | Date | null): void {
    if (instant === null) {
      this.offsetMs = 0;
      return;
    }
    const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
    if (!Number.isFinite(ms)) throw new RangeError('clock: not a valid instant');
    this.offsetMs = ms - this.realNow();
  }

  /** Moves the clock forward (or back, with a negative value). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** True when the clock has been set away from real time. */
  get isSet(): boolean {
    return this.offsetMs !== 0;
  }

  /** Today's date in UTC, YYYY-MM-DD. */
  today(): string {
    return utcDateOf(this.now());
  }
}

/** Epoch ms → `YYYY-MM-DD HH:MM:SS` (UTC), the service's timestamp form. */
export function formatServiceTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

const DAY_MS = 86_400_000;
let memoDay = Number.NaN;
let memoDate = '';

/** Epoch ms → `YYYY-MM-DD` (UTC). Memoizes the last day (bulk writes share one). */
export function utcDateOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== memoDay) {
    memoDate = new Date(day * DAY_MS).toISOString().slice(0, 10);
    memoDay = day;
  }
  return memoDate;
}
