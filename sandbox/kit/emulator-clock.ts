/**
 * The emulator's notion of "now". Timestamps, token expiry, rate-limit windows and overdue status all read
 * it, so tests control time through one knob (POST /__admin/clock). It ticks with real time, also after
 * being moved (it keeps an offset from `wall`), so two writes a few ms apart still get increasing
 * timestamps; it can also be frozen, which makes token expiry and rate-limit windows fully deterministic.
 * `wall` is injectable, so a test can let time pass without sleeping.
 */
export interface ClockSettings {
  /** New current instant (ISO-8601 or epoch ms); null returns to real time (and unfreezes). */
  now?: string | number | Date | null;
  /** Moves the clock forward (negative: back) by this many seconds. */
  advanceSeconds?: number;
  /** Same, in milliseconds (the billing emulator's spelling). */
  advanceMs?: number;
  /** true stops the clock at its current instant; false lets it tick again from there. */
  frozen?: boolean;
}

export class EmulatorClock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  constructor(
    initial: ClockSettings = {},
    private readonly wall: () => number = Date.now,
  ) {
    this.set(initial);
  }

  now(): number {
    return this.frozenAt ?? this.wall() + this.offsetMs;
  }

  /** Now, truncated to whole seconds (vendors whose timestamps have second precision). */
  nowSecond(): number {
    return Math.floor(this.now() / 1000) * 1000;
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** True when the clock has been moved away from real time (or frozen). */
  get isSet(): boolean {
    return this.offsetMs !== 0 || this.frozenAt !== undefined;
  }

  /** Today's date in UTC, YYYY-MM-DD. */
  today(): string {
    return new Date(this.now()).toISOString().slice(0, 10);
  }

  set(settings: ClockSettings): { now: string; frozen: boolean } {
    // Freeze first, so `{now, frozen: true}` stops exactly at `now` (not a millisecond later).
    if (settings.frozen === true && this.frozenAt === undefined) this.frozenAt = this.now();
    if (settings.now === null) {
      this.offsetMs = 0;
      this.frozenAt = undefined;
    } else if (settings.now !== undefined) {
      const target = new Date(settings.now).getTime();
      if (Number.isNaN(target)) throw new Error(`clock: not an instant: ${String(settings.now)}`);
      this.moveTo(target);
    }
    if (settings.advanceSeconds !== undefined) this.moveTo(this.now() + settings.advanceSeconds * 1000);
    if (settings.advanceMs !== undefined) this.moveTo(this.now() + settings.advanceMs);
    if (settings.frozen === false && this.frozenAt !== undefined) {
      this.offsetMs = this.frozenAt - this.wall();
      this.frozenAt = undefined;
    }
    return this.snapshot();
  }

  snapshot(): { now: string; frozen: boolean } {
    return { now: new Date(this.now()).toISOString(), frozen: this.frozen };
  }

  private moveTo(target: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = target;
    else this.offsetMs = target - this.wall();
  }
}
