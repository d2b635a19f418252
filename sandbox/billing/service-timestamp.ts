/** The billing service's timestamp and date forms, from epoch milliseconds of the emulator clock. */

/** Epoch ms → `YYYY-MM-DD HH:MM:SS` (UTC), the service's timestamp form. */
export function formatServiceTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

const DAY_MS = 86_400_000;
let memoDay = Number.NaN;
let memoDate = '';

/** Epoch ms → `YYYY-MM-DD` (UTC). Memoizes the last day (bulk writes share one). */
export function utcDateOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== memoDay) {
    memoDate = new Date(day * DAY_MS).toISOString().slice(0, 10);
    memoDay = day;
  }
  return memoDate;
}
