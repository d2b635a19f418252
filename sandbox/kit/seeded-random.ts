/**
 * Deterministic pseudo-random numbers for the ERP sandboxes: mulberry32 (32-bit state, pure integer math),
 * so the same seed yields the same data set on every machine and Node version. Never Math.random.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('SeededRandom.pick: empty list');
    return item;
  }

  /** Picks a value with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('SeededRandom.weighted: empty list');
    return last[0];
  }

  /** Upper-case letters. */
  letters(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String.fromCharCode(65 + this.int(0, 25));
    return out;
  }

  /** Decimal digits. */
  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }

  /** Lower-case hex string of `length` characters. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  /** A version-4-shaped UUID, as Xero ids are. */
  uuid(): string {
    const variant = '89ab'[Math.floor(this.next() * 4)]!;
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /**
   * An independent stream for one part of the data set, so that (say) asking for more invoices does not
   * change the generated contacts.
   */
  fork(label: string): SeededRandom {
    return new SeededRandom(hashSeed(`${this.state}:${label}`));
  }
}

/** FNV-1a 32-bit: turns a string seed or label into a mulberry32 state. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
