/**
 * Retry-After → milliseconds. Accepts delta-seconds ("2", "0.5") or an HTTP-date; anything else
 * (missing, negative, garbage) → undefined so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP-date always has letters (day and month names); this keeps "-3" from parsing as year -3.
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
