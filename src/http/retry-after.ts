/**
 * Retry-After → milliseconds. Accepts delta-seconds ("2", "0.5") or an HTTP-date; anything else
 * (missing, negative, garbage, a date without its GMT) → undefined so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = parseHttpDate(trimmed);
  if (at === undefined) return undefined;
  return Math.max(0, at - now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** The three forms RFC 9110 §5.6.7 lets a recipient accept, in the order of its grammar; all three are UTC. */
const FORMS: Array<{ re: RegExp; order: [day: number, month: number, year: number, time: number] }> = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  { re: new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`), order: [1, 2, 3, 4] },
  // obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  { re: new RegExp(`^${DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`), order: [1, 2, 3, 4] },
  // asctime: Sun Nov  6 08:49:37 1994 (no zone written: the RFC defines it as UTC)
  { re: new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`), order: [2, 1, 6, 3] },
];

/**
 * An HTTP-date as epoch ms, always in UTC as RFC 9110 defines it (https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7),
 * never in the host's zone (Date.parse reads asctime's zone-less form as local time); undefined otherwise.
 */
export function parseHttpDate(text: string): number | undefined {
  for (const { re, order } of FORMS) {
    const m = re.exec(text);
    if (!m) continue;
    const [d, mo, y, t] = order;
    let year = Number(m[y]);
    // RFC 850's two-digit year: a year more than 50 years ahead is read as the last century (RFC 9110).
    if (m[y]!.length === 2) year += year + 2000 > new Date().getUTCFullYear() + 50 ? 1900 : 2000;
    const [hh, mi, ss] = [Number(m[t]), Number(m[t + 1]), Number(m[t + 2])];
    const ms = Date.UTC(year, MONTHS.indexOf(m[mo]!), Number(m[d]!.trim()), hh, mi, ss);
    const back = new Date(ms);
    if (back.getUTCDate() !== Number(m[d]!.trim()) || back.getUTCHours() !== hh || ss > 59 || mi > 59) return undefined;
    return ms;
  }
  return undefined;
}
