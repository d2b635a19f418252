/**
 * A set of record ids for a read that must remember every id it handed out (a listing paged by offset,
 * checked again for rows the first pass missed). A `Set<string>` costs about 70 bytes of heap per id
 * (the string and its table entry): a first sync of 1,000,000 Zoho Books invoices held 22 MiB for its
 * first 317,000 ids, and the worker went over its memory budget.
 *
 * Ids that are plain decimal numbers below 2^64 (Zoho's ids are: "460000000026049") are kept off the
 * JavaScript heap in open-addressing tables of integers. An organisation's ids come from one counter, so
 * they lie close together: an id within 2^32 − 1 above the first numeric id added is kept as its offset
 * from it, 4 bytes a slot (1,000,000 Zoho ids: 8 MiB); any other decimal id as a 64-bit integer, 8 bytes
 * a slot. Any other id (leading zeros, signs, letters, too long) goes to an ordinary Set. Which table an
 * id belongs to depends only on the id and that first id, so membership stays exact for every string.
 */
export class IdSet {
  private static readonly MAX_LOAD = 0.7;
  /** The first numeric id added (its key): offsets are counted from it. */
  private base: bigint | undefined;
  /** Slot value: the offset from `base` plus one (0 marks an empty slot). */
  private near: Uint32Array = new Uint32Array(1 << 10);
  private nearCount = 0;
  /** Slot value: the id plus one (0 marks an empty slot); made when the first id outside `near` comes. */
  private far: BigUint64Array | undefined;
  private farCount = 0;
  private readonly other = new Set<string>();

  get size(): number {
    return this.nearCount + this.farCount + this.other.size;
  }

  /** Bytes of the integer tables (the memory this set holds off the JavaScript heap). */
  get tableBytes(): number {
    return this.near.byteLength + (this.far?.byteLength ?? 0);
  }

  has(id: string): boolean {
    const key = keyOf(id);
    if (key === undefined) return this.other.has(id);
    const offset = this.offsetOf(key);
    if (offset !== undefined) return this.near[nearSlot(this.near, offset)] === offset;
    return this.far !== undefined && this.far[farSlot(this.far, key)] === key;
  }

  add(id: string): this {
    const key = keyOf(id);
    if (key === undefined) {
      this.other.add(id);
      return this;
    }
    this.base ??= key;
    const offset = this.offsetOf(key);
    if (offset !== undefined) {
      const slot = nearSlot(this.near, offset);
      if (this.near[slot] === offset) return this;
      this.near[slot] = offset;
      if (++this.nearCount > this.near.length * IdSet.MAX_LOAD) this.near = grownNear(this.near);
      return this;
    }
    this.far ??= new BigUint64Array(1 << 10);
    const slot = farSlot(this.far, key);
    if (this.far[slot] === key) return this;
    this.far[slot] = key;
    if (++this.farCount > this.far.length * IdSet.MAX_LOAD) this.far = grownFar(this.far);
    return this;
  }

  /** The key's slot value in `near` (its offset from `base`, plus one), or undefined when it belongs in `far`. */
  private offsetOf(key: bigint): number | undefined {
    if (this.base === undefined) return undefined;
    const offset = key - this.base + 1n;
    return offset >= 1n && offset <= MAX_NEAR ? Number(offset) : undefined;
  }
}

const DECIMAL = /^(?:0|[1-9][0-9]{0,19})$/;
const MAX_KEY = 2n ** 64n - 1n;
const MAX_NEAR = 2n ** 32n - 1n;

/** The key of a canonical decimal id below 2^64 − 1 (the id plus one); undefined for any other string. */
function keyOf(id: string): bigint | undefined {
  if (!DECIMAL.test(id)) return undefined;
  const key = BigInt(id) + 1n;
  return key <= MAX_KEY ? key : undefined;
}

/** The slot holding `value`, or the empty slot where it would go (linear probing). */
function nearSlot(table: Uint32Array, value: number): number {
  const mask = table.length - 1;
  let i = mix32(value) & mask;
  for (;;) {
    const v = table[i]!;
    if (v === 0 || v === value) return i;
    i = (i + 1) & mask;
  }
}

function farSlot(table: BigUint64Array, key: bigint): number {
  const mask = table.length - 1;
  let i = mix32(Number(BigInt.asUintN(32, key)) ^ Math.imul(Number(key >> 32n), 0x9e3779b1)) & mask;
  for (;;) {
    const v = table[i]!;
    if (v === 0n || v === key) return i;
    i = (i + 1) & mask;
  }
}

function grownNear(table: Uint32Array): Uint32Array {
  const next = new Uint32Array(table.length * 2);
  for (const v of table) if (v !== 0) next[nearSlot(next, v)] = v;
  return next;
}

function grownFar(table: BigUint64Array): BigUint64Array {
  const next = new BigUint64Array(table.length * 2);
  for (const v of table) if (v !== 0n) next[farSlot(next, v)] = v;
  return next;
}

/** A 32-bit finaliser (murmur3's): consecutive ids, as a counter gives them, spread over the table. */
function mix32(x: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
