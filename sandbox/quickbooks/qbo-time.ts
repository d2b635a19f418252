/**
 * QBO renders instants in the company's time zone with an offset: MetaData times to the second
 * (`2015-12-23T12:55:50-08:00`), the response `time` with milliseconds (`…02:01:11.123-08:00`).
 */
export function renderTimestamp(ms: number, offsetMinutes: number, withMillis = false): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local.slice(0, withMillis ? 23 : 19)}${zone}`;
}

/** The calendar date (YYYY-MM-DD) of an instant in the company's zone. */
export function localDate(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A query or CDC timestamp literal → epoch ms. Accepts a date, or a date-time with `Z`/`±hh:mm`/`±hhmm`;
 * a date-time without offset is read in the company's zone (as QBO reads it). Undefined when malformed.
 */
export function parseQboInstant(text: string, offsetMinutes: number): number | undefined {
  const t = text.trim();
  if (!TIMESTAMP.test(t)) return undefined;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(t) && t.includes('T');
  let iso = t.includes('T') ? t : `${t}T00:00:00`;
  iso = iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(hasZone ? iso : `${iso}Z`);
  if (Number.isNaN(ms)) return undefined;
  return hasZone ? ms : ms - offsetMinutes * 60_000;
}
