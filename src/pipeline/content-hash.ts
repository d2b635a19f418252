import { createHash } from 'node:crypto';

/**
 * Canonical JSON (sorted keys, no undefined) so equal content always hashes equal. Ledgers keep these
 * hashes: the output must never change for a given value (test/pipeline/content-hash.test.ts pins it).
 * Built with one string per level instead of entry arrays (it runs for every record a pull maps).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, false);
}

/**
 * The same, with object fields whose value is null left out like absent ones (an array keeps its
 * nulls): what a field digest hashes (jobs/reconcile/field-digest.ts).
 */
export function canonicalJsonWithoutNullFields(value: unknown): string {
  return canonical(value, true);
}

/** Keys as JSON strings, remembered: records of one kind repeat the same few hundred keys. */
const QUOTED_KEYS = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;

function quotedKey(key: string): string {
  let quoted = QUOTED_KEYS.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (QUOTED_KEYS.size < MAX_QUOTED_KEYS) QUOTED_KEYS.set(key, quoted);
  }
  return quoted;
}

function canonical(value: unknown, dropNullFields: boolean): string {
  // A finite number prints as String() prints it; NaN and ±Infinity as null, as JSON.stringify does.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // A hole of a sparse array stays empty, as Array.prototype.map then join left it.
      if (i in value) out += canonical(value[i] ?? null, dropNullFields);
    }
    return `${out}]`;
  }
  // Object.keys then sort(): the same keys in the same order (UTF-16 code units) as the entries sorted by `<`.
  const keys = Object.keys(value).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || (dropNullFields && v === null)) continue;
    out += `${first ? '' : ','}${quotedKey(key)}:${canonical(v, dropNullFields)}`;
    first = false;
  }
  return `${out}}`;
}

/** sha256 of the canonical JSON, hex. */
export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
