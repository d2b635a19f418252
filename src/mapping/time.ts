import { mapFail, type MapFailure, mapOk, type MapResult } from './quarantine-reason.js';

/**
 * Vendor timestamps and dates (each connector's README lists its vendor's formats). Every instant leaves here as a UTC
 * ISO string `YYYY-MM-DDTHH:mm:ss.sssZ`, which sorts as text in time order (cursors compare strings).
 * Calendar dates (invoice date, due date) stay calendar dates: `YYYY-MM-DD` as the vendor wrote it,
 * never converted through an instant, because shifting 2025-02-10 by +05:30 would make it 2025-02-09.
 *
 * Forms accepted:
 * - ISO 8601 with offset `±hh:mm` (QuickBooks `2015-12-23T12:55:50-08:00`), `±hhmm` (Zoho
 *   `2025-02-20T16:41:09+0530`, no colon) or `Z`, optional fraction (QuickBooks `time`: `.123`);
 * - Microsoft JSON dates (Xero): `/Date(1739334670123+0000)/` and, on some fields, `/Date(1552326816230)/`.
 *   The milliseconds are UTC epoch milliseconds; the suffix only says which zone the value was local to
 *   (.NET's convention), so it does not shift the instant;
 * - zone-less `2025-02-10T00:00:00` (Xero `DateString`, `UpdatedDateUTCString` without `Z`) only when the
 *   caller says the vendor means UTC (`zoneless: 'utc'`); otherwise rejected, because elsewhere a missing
 *   zone means "local to somebody" and guessing would move cursors by hours.
 */

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i;
const MS_DATE = /^\/Date\((-?\d{1,15})([+-]\d{4})?\)\/$/;
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Largest offset ISO 8601 allows; real zones stay within -12:00..+14:00. */
const MAX_OFFSET_MINUTES = 18 * 60;

export interface ParseTimestampOptions {
  /** Vendor field name, for messages. */
  field?: string;
  /** How to read a timestamp without zone: 'utc' (Xero DateString) or 'reject' (default). */
  zoneless?: 'utc' | 'reject';
}

/** A vendor timestamp → UTC ISO string. Malformed or impossible values are INVALID_FIELD, absent ones MISSING_FIELD. */
export function parseTimestamp(raw: unknown, options: ParseTimestampOptions = {}): MapResult<string> {
  const read = readText(raw, options.field ?? 'timestamp');
  if (!read.ok) return read;
  const { text, invalid } = read.value;

  const ms = MS_DATE.exec(text);
  if (ms) {
    if (ms[2] !== undefined && parseOffset(ms[2]) === undefined) return invalid('has an impossible offset');
    const iso = toUtcIso(Number(ms[1]));
    return iso === undefined ? invalid('is out of range') : mapOk(iso);
  }

  const iso = ISO_TIMESTAMP.exec(text);
  if (!iso) return invalid('is not a recognised timestamp');
  const [, y, mo, d, h, mi, s, frac, zone] = iso;
  if (zone === undefined && options.zoneless !== 'utc') return invalid('has no time zone offset');
  const offset = zone === undefined ? 0 : parseOffset(zone);
  if (offset === undefined) return invalid('has an impossible offset');
  const millis = Number((frac ?? '').padEnd(3, '0').slice(0, 3)); // truncate: sub-ms digits never matter here
  const wall = utcFromFields(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), millis);
  if (wall === undefined) return invalid('is not a real date and time');
  const utc = toUtcIso(wall - offset * 60_000);
  return utc === undefined ? invalid('is out of range') : mapOk(utc);
}

/**
 * ISO string of epoch ms, only for years 0000-9999: beyond them toISOString switches to the 6-digit
 * "+033658-..." form, which would no longer sort as text against our other cursors.
 */
function toUtcIso(ms: number): string | undefined {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  return iso.length === 24 ? iso : undefined;
}

/**
 * A calendar date `YYYY-MM-DD`, as the vendor wrote it. Accepts a plain date, the date part of an ISO
 * timestamp (`2025-02-10T00:00:00`, with or without offset: the date as written is the local calendar date),
 * or a Microsoft JSON date, read in its own offset (Xero `/Date(1739145600000+0000)/` → its UTC date).
 */
export function parseCalendarDate(raw: unknown, field = 'date'): MapResult<string> {
  const read = readText(raw, field);
  if (!read.ok) return read;
  const { text, invalid } = read.value;

  const ms = MS_DATE.exec(text);
  if (ms) {
    const offset = ms[2] === undefined ? 0 : parseOffset(ms[2]);
    if (offset === undefined) return invalid('has an impossible offset');
    const local = toUtcIso(Number(ms[1]) + offset * 60_000);
    return local === undefined ? invalid('is out of range') : mapOk(local.slice(0, 10));
  }

  const datePart = ISO_TIMESTAMP.test(text) ? text.slice(0, 10) : text;
  const m = PLAIN_DATE.exec(datePart);
  if (!m || utcFromFields(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0) === undefined) {
    return invalid('is not a calendar date YYYY-MM-DD');
  }
  if (datePart !== text && !parseTimestamp(text, { field, zoneless: 'utc' }).ok) {
    return invalid('is not a valid timestamp');
  }
  return mapOk(datePart);
}

/** Offset in minutes east of UTC: "Z" → 0, "+0530" → 330, "-08:00" → -480. Undefined if malformed. */
export function parseOffset(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) >= 60 || minutes > MAX_OFFSET_MINUTES) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * The offset a vendor timestamp was written in ("2025-02-20T16:41:09+0530" → 330), so a cursor can be
 * sent back in the org's own zone. Undefined when the text has no offset.
 */
export function offsetMinutesOf(timestamp: string): number | undefined {
  const zone = ISO_TIMESTAMP.exec(timestamp.trim())?.[8];
  return zone === undefined ? undefined : parseOffset(zone);
}

/**
 * A time read from outside (a webhook body, a checkpoint, a command-line flag) as a UTC ISO string, placed
 * as parseTimestamp places it: by the offset it carries, else by the zone its source documents
 * (`zoneless: 'utc'`), never by the host's zone. A value that cannot be placed is thrown as `fail` builds
 * it from a message naming `field` (and the value, which the caller may leave out of what it shows).
 */
export function placeInstant(
  raw: unknown,
  field: string,
  options: { zoneless?: 'utc' | 'reject'; fail: (message: string) => Error },
): string {
  const r = parseTimestamp(raw, { field, zoneless: options.zoneless ?? 'reject' });
  if (!r.ok) throw options.fail(r.message);
  return r.value;
}

/** The UTC calendar day of an instant: "2025-02-20T01:30:00+0530" is 2025-02-19 in UTC. */
export function utcDateOf(instant: string | Date): string {
  return asDate(instant).toISOString().slice(0, 10);
}

/** A Date, or the instant a string names with its zone: a zone-less string is refused, not read as host time. */
function asDate(instant: string | Date): Date {
  if (typeof instant !== 'string') {
    if (Number.isNaN(instant.getTime())) throw new RangeError('not an instant: Invalid Date');
    return instant;
  }
  return new Date(placeInstant(instant, 'instant', { fail: (message) => new RangeError(message) }));
}

/**
 * An instant as local time at `offsetMinutes`, to whole seconds: 'compact' gives Zoho's `±hhmm`
 * (`2025-02-20T16:41:09+0530`), 'extended' the ISO `±hh:mm` QuickBooks queries want.
 * Milliseconds are truncated, never rounded up, so a cursor sent as a `>=` lower bound can only move
 * earlier (re-reading a record is harmless; skipping one is not).
 */
export function formatWithOffset(instant: string | Date, offsetMinutes: number, style: 'compact' | 'extended'): string {
  const date = asDate(instant);
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) {
    throw new RangeError(`not a UTC offset in minutes: ${offsetMinutes}`);
  }
  const local = toUtcIso(Math.floor(date.getTime() / 1000) * 1000 + offsetMinutes * 60_000);
  if (local === undefined) throw new RangeError(`instant out of the 4-digit-year range: ${String(instant)}`);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local.slice(0, 19)}${sign}${hh}${style === 'extended' ? ':' : ''}${mm}`;
}

/** Zoho's timestamp form for an org at `offsetMinutes` (e.g. 330 for IST): `2025-02-20T16:41:09+0530`. */
export function formatZohoTimestamp(instant: string | Date, offsetMinutes: number): string {
  return formatWithOffset(instant, offsetMinutes, 'compact');
}

/** Epoch ms of a wall-clock reading taken as UTC, or undefined when a field is out of range (Feb 30, 24:00). */
function utcFromFields(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number | undefined {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 19xx
  date.setUTCHours(h, mi, s, ms);
  const same =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return same ? date.getTime() : undefined;
}

/**
 * Where both parsers start: absent (null, undefined, '') is MISSING_FIELD, a non-string INVALID_FIELD;
 * else the trimmed text, and `invalid` to fail it later with a message naming the field and the value.
 */
function readText(raw: unknown, field: string): MapResult<{ text: string; invalid: (why: string) => MapFailure }> {
  if (raw === null || raw === undefined || raw === '')
    return mapFail('MISSING_FIELD', `${field} is missing`, { field });
  const invalid = (why: string) => mapFail('INVALID_FIELD', `${field} ${describe(raw)} ${why}`, { field });
  if (typeof raw !== 'string') return invalid('is not a string');
  return mapOk({ text: raw.trim(), invalid });
}

function describe(raw: unknown): string {
  if (typeof raw === 'string') return raw.length > 40 ? `(string of length ${raw.length})` : JSON.stringify(raw);
  return `(${typeof raw})`;
}
