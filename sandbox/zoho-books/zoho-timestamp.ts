/**
 * Zoho's date and time formats. Timestamps (`created_time`, `last_modified_time`) are printed in the
 * organisation's time zone with an offset that has no colon: `2025-02-20T16:41:09+0530`. Dates (`date`,
 * `due_date`) are plain calendar dates `yyyy-mm-dd` in the organisation's calendar.
 * https://www.zoho.com/books/api/v3/invoices/#list-invoices (last_modified_time parameter)
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `yyyy-MM-ddTHH:mm:ss±hhmm` in the given offset (minutes east of UTC); milliseconds are dropped. */
export function formatZohoTimestamp(ms: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * MINUTE_MS);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}

/** The organisation-local calendar date of an instant. */
export function formatZohoDate(ms: number, offsetMinutes: number): string {
  return formatZohoTimestamp(ms, offsetMinutes).slice(0, 10);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Parses a `last_modified_time` filter value. Accepts `±hhmm` (Zoho's form) and `±hh:mm`; without an offset
 * the value is read in the organisation's time zone. Returns undefined for anything else, including the
 * `2025-02-20T16:41:09 0530` that an unencoded `+` turns into, and impossible dates like the doc's own
 * `2025-19-19` typo.
 */
export function parseZohoTimestamp(text: string, defaultOffsetMinutes: number): number | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : defaultOffsetMinutes;
  if (Number(oh ?? 0) > 14 || Number(om ?? 0) > 59) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const dayMs = parseZohoDate(`${y}-${mo}-${d}`);
  if (dayMs === undefined) return undefined;
  return dayMs + (Number(h) * 60 + Number(mi)) * MINUTE_MS + Number(s) * 1000 - offset * MINUTE_MS;
}

/** `yyyy-mm-dd` → UTC midnight of that calendar day, or undefined when not a real date. */
export function parseZohoDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  return ms;
}

/** Calendar arithmetic on `yyyy-mm-dd` strings. */
export function addDays(date: string, days: number): string {
  const ms = parseZohoDate(date);
  if (ms === undefined) throw new Error(`addDays: not a date: ${date}`);
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant of local midnight starting `date` in the given offset. */
export function localMidnight(date: string, offsetMinutes: number): number {
  const ms = parseZohoDate(date);
  if (ms === undefined) throw new Error(`localMidnight: not a date: ${date}`);
  return ms - offsetMinutes * MINUTE_MS;
}
