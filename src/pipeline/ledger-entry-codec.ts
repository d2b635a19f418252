import type { LedgerEntry } from './ledger-entry.js';

/*
 * The stored form of a ledger entry: the bytes one record costs in Redis for as long as it exists.
 *
 * Two forms
 * - compact: what encodeLedgerEntry writes;
 * - legacy: plain JSON of LedgerEntry, written before the compact form (and still, when compacting would
 *   not round-trip); read as it is, so nothing is re-written after an upgrade.
 * Every entry has a writtenAt, so a `w` key is what tells the compact form from the legacy one.
 *
 * Compact format: still one JSON object (Lua scripts decode it with cjson); the keys scripts read or write
 * by name keep their names, the others get one letter.
 *
 * | key                 | compact form                                               | why                       |
 * |---------------------|------------------------------------------------------------|---------------------------|
 * | hash                | base64url (the same bytes as hex)                          | scripts read it           |
 * | version             | as it is                                                   | scripts compare it        |
 * | jobId               | as it is                                                   | scripts read it           |
 * | sourceDeletedAt     | as it is                                                   | scripts read it           |
 * | attachmentUrl       | [before, after] around the ERP id's last occurrence        | a script clears it        |
 * |                     | (`https://…/invoices/` + id + `.pdf`); may hold a template |                           |
 * | fields              | names as FIELD_CODES (an unknown name as it is);           | scripts read it           |
 * |                     | digests base64url; dates (YYYY-MM-DD) as day numbers;      |                           |
 * |                     | a buyer id of the entry's own connection as [ERP part];    |                           |
 * |                     | invoiceNumber left out when it equals `number`, erpId      |                           |
 * |                     | left out when it equals the entry's ERP id                 |                           |
 * | billingId → b       | [before, after] around the ERP id (`inv.zoho-in.` + id)    | no script reads it        |
 * | number → n          | as it is                                                   | no script reads it        |
 * | sourceStatus → s    | as it is                                                   | no script reads it        |
 * | sourceLifecycle → l | as it is                                                   | no script reads it        |
 * | writtenAt → w       | as it is                                                   | tells the two forms apart |
 *
 * Exactness
 * encodeLedgerEntry writes the legacy form whenever decoding the compact one would not give back exactly
 * the entry it was given (same JSON, key order included), so no entry is ever altered by its encoding.
 * It knows that without decoding: every shortening above is undone exactly by decode, so only a value
 * decode would read differently from how it was stored can break the round trip, and compactEntry
 * refuses each such value where it meets it (see `Irreversible`). A test holds this against decoding
 * itself over many thousand generated entries, odd ones included. cjson (the scripts) re-encodes objects
 * in its own key order, keeps null and arrays of strings, and writes an empty object as {}: none of that
 * changes what decodeLedgerEntry returns.
 */

/**
 * Codes of the compared fields' names (jobs/pull/reconcile-fields.ts, in its order). They are stored in
 * Redis: a code is never changed or given to another name; a new name gets a new code at the end.
 */
export const FIELD_CODES: Readonly<Record<string, string>> = {
  invoiceNumber: 'a',
  invoiceDate: 'b',
  invoiceDueDate: 'c',
  invoiceCurrency: 'd',
  exchangeRate: 'e',
  invoiceSubtotal: 'f',
  invoiceTax: 'g',
  invoiceTotal: 'h',
  invoicePaidAmount: 'i',
  invoiceAdjustedAmount: 'j',
  promiseToPayDate: 'k',
  buyerId: 'l',
  customerName: 'm',
  referenceType: 'n',
  referenceId: 'o',
  referenceText: 'p',
  irnNumber: 'q',
  placeOfSupply: 'r',
  erpId: 's',
  invoiceOriginSource: 't',
  'digest:invoiceTax': 'u',
  'digest:discount': 'v',
  'digest:lineItems': 'w',
  'digest:invoiceAmountAdjustments': 'x',
  'digest:tags': 'y',
  'digest:metaData': 'z',
};

const CODES = new Map(Object.entries(FIELD_CODES));
const FIELD_NAMES = new Map(Object.entries(FIELD_CODES).map(([name, code]) => [code, name]));
/** A name's place in FIELD_CODES: where a left-out field goes back in (the order fields are built in). */
const FIELD_ORDER = new Map(Object.keys(FIELD_CODES).map((name, i) => [name, i]));
/** A name not in FIELD_CODES that could be read as a code (one character) or as escaped gets `~` before it. */
const ESCAPE = '~';

const SHORT_KEYS = new Map([
  ['billingId', 'b'],
  ['number', 'n'],
  ['sourceStatus', 's'],
  ['sourceLifecycle', 'l'],
  ['writtenAt', 'w'],
]);
const LONG_KEYS = new Map([...SHORT_KEYS].map(([long, short]) => [short, long]));
/** writtenAt's short name: on every compact entry, on no legacy one. */
const COMPACT_MARK = SHORT_KEYS.get('writtenAt')!;
/** Top-level keys whose value may be stored as a template around the ERP id. */
const TEMPLATED = new Set(['billingId', 'attachmentUrl']);

type Fields = Record<string, string | null>;
type Template = [before: string] | [before: string, after: string];

/** The entry's stored JSON (compact form; legacy when the compact one would not decode back exactly). */
export function encodeLedgerEntry(erpId: string, entry: LedgerEntry): string {
  const legacy = JSON.stringify(entry);
  let compact: string;
  try {
    compact = JSON.stringify(compactEntry(erpId, entry));
  } catch (err) {
    if (err instanceof Irreversible) return legacy;
    throw err;
  }
  return compact.length < legacy.length ? compact : legacy;
}

/**
 * A value decode would not give back as it was given: a string that looks like what a shortening makes
 * (base64url of a digest's length, a day number, a template), a value JSON writes otherwise than it
 * holds it where decode looks at it, a key spelled like a short key, a left-out field decode would not
 * restore in its place. The entry is written in the legacy form.
 */
class Irreversible extends Error {}
const irreversible = (): never => {
  throw new Irreversible();
};

/** A property JSON leaves out. */
function absentFromJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** A plain object whose JSON is its own enumerable keys (no toJSON of its own, no other prototype). */
function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * `value` kept as it is where decode reads values back with `readBack`: refused when decode would read
 * what JSON makes of it (a Date's string, a number's null, ...) as anything but that.
 */
function keptWhereRead(value: unknown, readBack: (stored: unknown) => unknown): unknown {
  const stored =
    value === null || typeof value === 'string' ? value : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);
  return readBack(stored) === stored ? value : irreversible();
}

/** Where decode reads a string back from base64url (hash, digest): `value` shortened, or kept as it is when decode reads it back as it is. */
function base64Of(value: unknown, hexLength: number): unknown {
  if (typeof value === 'string') {
    const short = toBase64(value, hexLength);
    if (short !== value) return short;
  }
  return keptWhereRead(value, (stored) => (typeof stored === 'string' ? fromBase64(stored, hexLength) : stored));
}

/** The entry stored at ledger field `erpId`, in either form. */
export function decodeLedgerEntry(erpId: string, json: string): LedgerEntry {
  const stored = JSON.parse(json) as Record<string, unknown>;
  if (!(COMPACT_MARK in stored)) return stored as unknown as LedgerEntry;
  const billingId = expandTemplate(stored[SHORT_KEYS.get('billingId')!], erpId);
  const context: Context = {
    erpId,
    number: stored[SHORT_KEYS.get('number')!],
    connection: connectionPartOf(billingId),
  };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) {
    const value = stored[key];
    const name = LONG_KEYS.get(key) ?? key;
    if (name === 'hash') put(out, name, typeof value === 'string' ? fromBase64(value, HASH_HEX) : value);
    else if (name === 'fields') put(out, name, isFields(value) ? expandFields(value, context) : value);
    else if (TEMPLATED.has(name)) put(out, name, expandTemplate(value, erpId));
    else put(out, name, value);
  }
  return out as unknown as LedgerEntry;
}

/*
 * The codec runs on every ledger write and read, so it builds objects by assignment in one pass rather
 * than through entry arrays, and the encoder checks what decode would make of a value where it meets it
 * instead of decoding what it wrote: encode 50 → 20 µs and decode 20 → 10 µs per typical invoice entry,
 * measured alone (docs/benchmarks.md). `put` keeps Object.fromEntries' meaning for every key.
 */

/** Sets an own property, `__proto__` included (as Object.fromEntries does; an assignment would set the prototype). */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** What a compact entry's left-out or shortened fields are restored from. */
interface Context {
  erpId: string;
  number: unknown;
  /** The connection's part of the entry's billing id (`zoho-in` of `inv.zoho-in.1114…`). */
  connection: string | undefined;
}

/** Lengths of the hex strings stored as base64url: the content hash (sha256) and a field digest. */
const HASH_HEX = 64;
const DIGEST_HEX = 32;
const DIGEST = 'digest:';

/** The compact form; throws Irreversible where decode would not give the entry back exactly. */
function compactEntry(erpId: string, entry: LedgerEntry): Record<string, unknown> {
  const record = entry as unknown as Record<string, unknown>;
  // Decode tells the forms apart by writtenAt's short key; the entry's own JSON must be its keys.
  if (absentFromJson(record.writtenAt) || !isPlainData(record)) irreversible();
  const context: Context = { erpId, number: entry.number, connection: connectionPartOf(entry.billingId) };
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (absentFromJson(value)) continue;
    if (LONG_KEYS.has(name)) irreversible(); // a key spelled like a short one
    const key = SHORT_KEYS.get(name) ?? name;
    if (name === 'hash') put(out, key, base64Of(value, HASH_HEX));
    else if (name === 'fields') put(out, key, isFields(value) ? compactFields(value, context) : value);
    else if (TEMPLATED.has(name))
      put(
        out,
        key,
        (typeof value === 'string' && templateOf(value, erpId)) ||
          keptWhereRead(value, (stored) => expandTemplate(stored, erpId)),
      );
    else put(out, key, value);
  }
  return out;
}

/** The fields decode restores when they are left out, from what. */
const DERIVED: ReadonlyArray<[name: string, from: (c: Context) => unknown]> = [
  ['invoiceNumber', (c) => c.number],
  ['erpId', (c) => c.erpId],
];
/** The same, by name. */
const DERIVED_FROM = new Map(DERIVED);
const BUYER = 'buyerId';
/** Dates (YYYY-MM-DD) stored as days since 1970-01-01. */
const DATES = new Set(['invoiceDate', 'invoiceDueDate', 'promiseToPayDate']);
const DAY_MS = 86_400_000;
/** Day numbers read back as dates, remembered (a ledger's dates fall on a few thousand days; Date is slow). */
const DATES_OF_DAYS = new Map<number, string>();
const dateOfDay = (day: number): string => {
  let date = DATES_OF_DAYS.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (DATES_OF_DAYS.size < 100_000) DATES_OF_DAYS.set(day, date);
  }
  return date;
};
const BUYER_KIND = 'cust';

function compactFields(fields: Record<string, unknown>, context: Context): Record<string, unknown> {
  // Decode expands every object that is not an array: its JSON must be its keys.
  if (!isPlainData(fields)) irreversible();
  const buyerPrefix = context.connection === undefined ? undefined : `${BUYER_KIND}.${context.connection}.`;
  const out: Record<string, unknown> = {};
  const given: string[] = [];
  const leftOut: string[] = [];
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (absentFromJson(value)) continue;
    given.push(name);
    const derived = DERIVED_FROM.get(name)?.(context);
    if (derived === value) {
      // Left out: decode restores only a string.
      if (typeof value !== 'string') irreversible();
      leftOut.push(name);
      continue;
    }
    const code = CODES.get(name);
    const key = code ?? (name.length <= 1 || name.startsWith(ESCAPE) ? ESCAPE + name : name);
    put(out, key, compactValue(name, value, buyerPrefix));
  }
  // Decode restores each derivable field it does not find, where the fields are built: it must find the
  // ones given, and put back the ones left out where they were.
  for (const [name, from] of DERIVED) if (typeof from(context) === 'string' && !given.includes(name)) irreversible();
  if (leftOut.length) {
    let at = 0;
    const kept = given.filter((name) => !leftOut.includes(name));
    const restore = DERIVED.map(([name]) => name).filter((name) => leftOut.includes(name));
    inRestoredOrder(kept, restore, (name) => void (name === given[at++] || irreversible()));
  }
  return out;
}

/**
 * A digest as base64url; a date as its day number; the buyer id of this connection (`buyerPrefix`) as
 * [its ERP part]; anything else as it is. Where decode reads a value back (a digest, a date, the buyer),
 * one it would read otherwise than as it is given is refused.
 */
function compactValue(name: string, value: unknown, buyerPrefix: string | undefined): unknown {
  if (name.startsWith(DIGEST)) return base64Of(value, DIGEST_HEX);
  if (DATES.has(name)) {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const day = Date.parse(`${value}T00:00:00Z`) / DAY_MS;
      if (Number.isInteger(day) && dateOfDay(day) === value) return day;
    }
    return keptWhereRead(value, (stored) => (typeof stored === 'number' ? dateOfDay(stored) : stored));
  }
  if (name === BUYER) {
    if (typeof value === 'string' && buyerPrefix && value.startsWith(buyerPrefix))
      return [value.slice(buyerPrefix.length)];
    return keptWhereRead(value, (stored) => (isTemplate(stored) && stored.length === 1 ? null : stored));
  }
  return value;
}

function expandFields(stored: Record<string, unknown>, context: Context): Fields {
  const keys = Object.keys(stored);
  const names = keys.map(nameOf);
  const restore = DERIVED.filter(([name, from]) => typeof from(context) === 'string' && !names.includes(name)).map(
    ([name]) => name,
  );
  const out: Record<string, unknown> = {};
  inRestoredOrder(names, restore, (name, i) =>
    put(out, name, i < 0 ? DERIVED_FROM.get(name)!(context) : expandValue(name, stored[keys[i]!], context)),
  );
  return out as Fields;
}

/**
 * The fields in the order decode gives them back: each stored name (`i` its index), and each left-out
 * one it restores (`restore`, in DERIVED order; i = -1) in the place the fields are built in (FIELD_CODES
 * order: before the first stored field built after it).
 */
function inRestoredOrder(names: readonly string[], restore: string[], visit: (name: string, i: number) => void): void {
  for (let i = 0; i < names.length; i++) {
    const place = FIELD_ORDER.get(names[i]!);
    while (place !== undefined && restore.length && FIELD_ORDER.get(restore[0]!)! < place) visit(restore.shift()!, -1);
    visit(names[i]!, i);
  }
  for (const name of restore) visit(name, -1);
}

/** A stored field value as it was given (compactValue undone). */
function expandValue(name: string, value: unknown, context: Context): unknown {
  if (typeof value === 'string' && name.startsWith(DIGEST)) return fromBase64(value, DIGEST_HEX);
  if (DATES.has(name) && typeof value === 'number') return dateOfDay(value);
  if (name === BUYER && isTemplate(value) && value.length === 1)
    return `${BUYER_KIND}.${context.connection}.${value[0]}`;
  return value;
}

function nameOf(key: string): string {
  if (key.startsWith(ESCAPE)) return key.slice(ESCAPE.length);
  return (key.length === 1 && FIELD_NAMES.get(key)) || key;
}

/** [before, after] around the last occurrence of the ERP id, when that is shorter than the value itself. */
function templateOf(value: string, erpId: string): Template | undefined {
  const at = erpId ? value.lastIndexOf(erpId) : -1;
  if (at < 0) return undefined;
  const after = value.slice(at + erpId.length);
  const template: Template = after ? [value.slice(0, at), after] : [value.slice(0, at)];
  return JSON.stringify(template).length < JSON.stringify(value).length ? template : undefined;
}

function expandTemplate(value: unknown, erpId: string): unknown {
  return isTemplate(value) ? `${value[0]}${erpId}${value[1] ?? ''}` : value;
}

/** `zoho-in` of `inv.zoho-in.1114…` (ids are `<kind>.<connection>.<erp id>`, src/mapping/ids.ts). */
function connectionPartOf(billingId: unknown): string | undefined {
  if (typeof billingId !== 'string') return undefined;
  // Exactly two dots: the part between them.
  const first = billingId.indexOf('.');
  const second = first < 0 ? -1 : billingId.indexOf('.', first + 1);
  return second >= 0 && billingId.indexOf('.', second + 1) < 0 ? billingId.slice(first + 1, second) : undefined;
}

/** Lower-case hex of `hexLength` digits as base64url (the same bytes in fewer characters); anything else as it is. */
function toBase64(value: string, hexLength: number): string {
  return value.length === hexLength && /^[0-9a-f]*$/.test(value)
    ? Buffer.from(value, 'hex').toString('base64url')
    : value;
}

function fromBase64(value: string, hexLength: number): string {
  const base64Length = Math.ceil((hexLength / 2) * (4 / 3));
  return value.length === base64Length && /^[A-Za-z0-9_-]*$/.test(value)
    ? Buffer.from(value, 'base64url').toString('hex')
    : value;
}

function isTemplate(value: unknown): value is Template {
  return (
    Array.isArray(value) && (value.length === 1 || value.length === 2) && value.every((v) => typeof v === 'string')
  );
}

function isFields(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
