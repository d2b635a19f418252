import type { SeededRandom } from '../kit/seeded-random.js';

/**
 * Zoho record ids: long numeric strings made of an org-specific prefix, zero padding and a counter
 * (e.g. "1890000000043211"). 17-digit ids exceed Number.MAX_SAFE_INTEGER, which is why the emulator always
 * prints ids as JSON strings and consumers must never parse them as numbers.
 */
export class IdSequence {
  private current: bigint;

  constructor(
    start: bigint,
    private readonly random: SeededRandom,
  ) {
    this.current = start;
  }

  /** The next id; gaps of 1–7 mimic ids consumed by other record types. */
  take(): string {
    this.current += BigInt(this.random.int(1, 7));
    return this.current.toString();
  }

  get last(): string {
    return this.current.toString();
  }
}

/** Compares numeric id strings by value (a 17-digit id is larger than any 16-digit one). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
