import { FIELD_CODES } from './ledger-entry-codec.js';

/*
 * The stored form of one record-history entry: one string per entry in a Redis list, so the history of
 * 100,000 records × 10 entries stays within about 100 bytes an entry (measured: docs/benchmarks.md,
 * "Record history").
 *
 * Form: the entry's slots in this order, joined by `|`, empty trailing slots left out:
 *
 * | slot     | stored as                                                                          |
 * |----------|------------------------------------------------------------------------------------|
 * | outcome  | one letter (OUTCOME_CODES)                                                         |
 * | at       | ms since epoch in base 36 (a Lua script reads it to drop entries older than days)  |
 * | version  | base 36 ms when it is an ISO instant (`_` after it: written without milliseconds);  |
 * |          | else as it is (`=` before it when it could be read as a number)                    |
 * | hash     | as given (a prefix of the content hash: enough to tell two writes apart)            |
 * | path     | one letter (PATH_CODES)                                                            |
 * | by       | the job or run id, the record's connection as `@`, its ERP id as `*`, the hash      |
 * |          | prefix as `#` (each at its first place)                                             |
 * | billing  | billing's id, with `@` and `*` as in `by` (`inv.@.*`)                               |
 * | changed  | field names, `,` between them, each as its FIELD_CODES letter (another name as it   |
 * |          | is, `~` before one that could be read as a code); `-` = none changed                |
 * | reason   | as it is                                                                           |
 *
 * Inside a slot, `% | , * @ #` are written `%XX`, so the separators and markers above are never text:
 * decode gives back exactly the entry encode was given (a property test holds this).
 */

export const HISTORY_OUTCOMES = [
  'written',
  'unchanged',
  'stale',
  'quarantined',
  'replayed',
  'repaired',
  'held',
  'approved',
  'rejected',
] as const;
/** What happened to a record at one moment. */
export type HistoryOutcome = (typeof HISTORY_OUTCOMES)[number];

export const HISTORY_PATHS = ['poll', 'webhook', 'backfill', 'repair', 'replay'] as const;
/** How the record came to the pipeline that time. */
export type HistoryPath = (typeof HISTORY_PATHS)[number];

/** One outcome of one record. */
export interface HistoryEntry {
  outcome: HistoryOutcome;
  /** When it happened, ms since epoch. */
  at: number;
  /** The source version the outcome is for. */
  version?: string;
  /** A prefix of the content hash (HISTORY_HASH_CHARS). */
  hash?: string;
  path?: HistoryPath;
  /** The job (or run) that did it. */
  by?: string;
  /** Billing's id of the record. */
  billingId?: string;
  /** A write: the compared fields whose values differ from the previous write's (absent: no previous write known). */
  changed?: string[];
  /** A quarantine's reason code; a rejection's note. */
  reason?: string;
}

/** Characters of the content hash kept: 48 bits, enough to tell a record's writes apart. */
export const HISTORY_HASH_CHARS = 12;

/** Stored in Redis: a code is never changed or given to another outcome or path; new ones get new letters. */
const OUTCOME_CODES: Readonly<Record<HistoryOutcome, string>> = {
  written: 'w',
  unchanged: 'u',
  stale: 's',
  quarantined: 'q',
  replayed: 'p',
  repaired: 'r',
  held: 'h',
  approved: 'a',
  rejected: 'x',
};
const PATH_CODES: Readonly<Record<HistoryPath, string>> = {
  poll: 'p',
  webhook: 'w',
  backfill: 'b',
  repair: 'r',
  replay: 'y',
};
const OUTCOMES = invert(OUTCOME_CODES);
const PATHS = invert(PATH_CODES);
const FIELD_NAMES = invert(FIELD_CODES);
const CODE_OF = new Map(Object.entries(FIELD_CODES));
const ESCAPE_NAME = '~';
const NONE_CHANGED = '-';

/** What every entry of one record shares, left out of each: the connection and the ERP id. */
export interface HistoryContext {
  connection: string;
  erpId: string;
}

export function encodeHistoryEntry(context: HistoryContext, e: HistoryEntry): string {
  const slots = [
    OUTCOME_CODES[e.outcome],
    e.at.toString(36),
    e.version === undefined ? '' : escape(versionForm(e.version)),
    e.hash === undefined ? '' : escape(e.hash),
    e.path === undefined ? '' : PATH_CODES[e.path],
    e.by === undefined ? '' : templated(e.by, context, e.hash),
    e.billingId === undefined ? '' : templated(e.billingId, context),
    e.changed === undefined ? '' : changedForm(e.changed),
    e.reason === undefined ? '' : escape(e.reason),
  ];
  while (slots.length && slots[slots.length - 1] === '') slots.pop();
  return slots.join('|');
}

export function decodeHistoryEntry(context: HistoryContext, stored: string): HistoryEntry {
  const [o, at, version, hash, path, by, billingId, changed, reason] = stored.split('|');
  const outcome = OUTCOMES.get(o!);
  if (!outcome) throw new Error(`record history: unknown outcome code "${o}" in ${JSON.stringify(stored)}`);
  const e: HistoryEntry = { outcome, at: parseInt(at!, 36) };
  if (version) e.version = versionOf(unescape(version));
  if (hash) e.hash = unescape(hash);
  if (path) e.path = PATHS.get(path);
  if (by) e.by = untemplated(by, context, e.hash);
  if (billingId) e.billingId = untemplated(billingId, context);
  if (changed) e.changed = changedOf(changed);
  if (reason) e.reason = unescape(reason);
  return e;
}

function invert<K extends string>(codes: Readonly<Record<K, string>>): Map<string, K> {
  return new Map(Object.entries(codes).map(([name, code]) => [code as string, name as K]));
}

const SPECIAL = /[%|,*@#]/g;
function escape(s: string): string {
  return s.replace(SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
function unescape(s: string): string {
  return s.replace(/%([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** `value` with its first `given` replaced by `marker`; every value is escaped first, so markers are never text. */
function mark(s: string, given: string | undefined, marker: string): string {
  if (!given) return s;
  const at = s.indexOf(escape(given));
  return at < 0 ? s : s.slice(0, at) + marker + s.slice(at + escape(given).length);
}
function unmark(s: string, given: string | undefined, marker: string): string {
  const at = s.indexOf(marker);
  return at < 0 || given === undefined ? s : s.slice(0, at) + escape(given) + s.slice(at + 1);
}

function templated(value: string, c: HistoryContext, hash?: string): string {
  return mark(mark(mark(escape(value), c.erpId, '*'), c.connection, '@'), hash, '#');
}
function untemplated(stored: string, c: HistoryContext, hash?: string): string {
  return unescape(unmark(unmark(unmark(stored, hash, '#'), c.connection, '@'), c.erpId, '*'));
}

const NUMBER_FORM = /^[0-9a-z]+$/;
const SECONDS_FORM = /^[0-9a-z]+_$/;
const RAW_MARK = '=';

function versionForm(v: string): string {
  const ms = Date.parse(v);
  if (Number.isInteger(ms) && ms >= 0) {
    const iso = new Date(ms).toISOString();
    if (iso === v) return ms.toString(36);
    if (ms % 1000 === 0 && iso.replace(/\.000Z$/, 'Z') === v) return `${ms.toString(36)}_`;
  }
  return v === '' || v.startsWith(RAW_MARK) || NUMBER_FORM.test(v) || SECONDS_FORM.test(v) ? RAW_MARK + v : v;
}
function versionOf(s: string): string {
  if (s.startsWith(RAW_MARK)) return s.slice(1);
  if (NUMBER_FORM.test(s)) return new Date(parseInt(s, 36)).toISOString();
  if (SECONDS_FORM.test(s)) return new Date(parseInt(s.slice(0, -1), 36)).toISOString().replace(/\.000Z$/, 'Z');
  return s;
}

function changedForm(names: readonly string[]): string {
  if (!names.length) return NONE_CHANGED;
  return names
    .map((n) => CODE_OF.get(n) ?? escape(n.length <= 1 || n.startsWith(ESCAPE_NAME) ? ESCAPE_NAME + n : n))
    .join(',');
}
function changedOf(s: string): string[] {
  if (s === NONE_CHANGED) return [];
  return s.split(',').map((part) => {
    const name = unescape(part);
    if (name.startsWith(ESCAPE_NAME)) return name.slice(1);
    return FIELD_NAMES.get(name) ?? name;
  });
}

/**
 * Between two entries of one record where they are stored joined (record-history.ts): never inside an
 * entry, whose only `%` starts an escape (`%` and two hex digits), so never `%%`.
 */
export const HISTORY_ENTRY_SEPARATOR = '%%';
