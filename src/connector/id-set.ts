/**
 * A set of record ids for a read that must remember every id it handed out (a listing paged by offset,
 * checked again for rows the first pass missed). A `Set<string>` costs about 70 bytes of heap per id
 * (the string and its table entry): a first sync of 1,000,000 Zoho Books invoices held 22 MiB for its
 * first 317,000 ids, and the worker went over its memory budget. Ids that are plain decimal numbers below
 * 2^64 (Zoho's ids are: "460000000026049") are kept here as 64-bit integers in an open-addressing table,
 * about 11 bytes per id off the JavaScript heap (12 MiB for 1,000,000). Any other id (leading zeros, signs,
 * letters, too long) goes to an ordinary Set, so membership stays exact for every string.
 */
export class IdSet {
  private static readonly MAX_LOAD = 0.7;
  /** Slot value: the id plus one (0 marks an empty slot). */
  private table = new BigUint64Array(1 << 10);
  private numeric = 0;
  private readonly other = new Set<string>();

  get size(): number {
    return this.numeric + this.other.size;
  }

  /** Bytes of the integer table (the memory this set holds off the JavaScript heap). */
  get tableBytes(): number {
    return this.table.byteLength;
  }

  has(id: string): boolean {
    const key = keyOf(id);
    if (key === undefined) return this.other.has(id);
    return this.table[this.slotOf(this.table, key)] === key;
  }

  add(id: string): this {
    const key = keyOf(id);
    if (key === undefined) {
      this.other.add(id);
      return this;
    }
    const slot = this.slotOf(this.table, key);
    if (this.table[slot] === key) return this;
    this.table[slot] = key;
    this.numeric++;
    if (this.numeric > this.table.length * IdSet.MAX_LOAD) this.grow();
    return this;
  }

  /** The slot holding `key`, or the empty slot where it would go (linear probing). */
  private slotOf(table: BigUint64Array, key: bigint): number {
    const mask = table.length - 1;
    let i = hash(key) & mask;
    for (;;) {
      const v = table[i]!;
      if (v === 0n || v === key) return i;
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const next = new BigUint64Array(this.table.length * 2);
    for (const v of this.table) if (v !== 0n) next[this.slotOf(next, v)] = v;
    this.table = next;
  }
}

const DECIMAL = /^(?:0|[1-9][0-9]{0,19})$/;
const MAX_KEY = 2n ** 64n - 1n;

/** The slot value of a canonical decimal id below 2^64 − 1; undefined for any other string. */
function keyOf(id: string): bigint | undefined {
  if (!DECIMAL.test(id)) return undefined;
  const key = BigInt(id) + 1n;
  return key <= MAX_KEY ? key : undefined;
}

/** 32-bit mix of both halves (Zoho ids differ mostly in their low digits, and share their high ones). */
function hash(key: bigint): number {
  const lo = Number(BigInt.asUintN(32, key));
  const hi = Number(key >> 32n);
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
