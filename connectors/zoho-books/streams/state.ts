import { z } from 'zod';
import { formatZohoTimestamp, parseTimestamp } from '../../../src/mapping/index.js';

/**
 * The state of every Zoho stream: `cursor`, the inclusive lower bound (UTC ISO) of the next read; null
 * reads from the beginning. Zoho's `last_modified_time` filter is inclusive and takes the timestamp in
 * the organisation's own offset without a colon (`2025-02-20T16:41:09+0530`, `+` URL-encoded as %2B by
 * URLSearchParams; https://www.zoho.com/books/api/v3/invoices/). The cursor is sent at whole seconds,
 * rounded down, so records edited in the same second as the cursor are read again, never skipped.
 */
export type State = { cursor: string | null };

export const State: z.ZodType<State> = z.strictObject({ cursor: z.string().nullable() });

export function initialState(from?: string): State {
  return { cursor: from ?? null };
}

/** The `last_modified_time` parameter for a cursor, in the organisation's offset at that instant (+0000 when unknown). */
export function cursorParam(cursorMs: number, offsetMinutes: number | undefined): string {
  return formatZohoTimestamp(new Date(cursorMs), offsetMinutes ?? 0);
}

/** Epoch ms of a Zoho timestamp, or undefined when it is absent or unreadable. */
export function instantOf(raw: unknown): number | undefined {
  const r = parseTimestamp(raw);
  return r.ok ? Date.parse(r.value) : undefined;
}

/**
 * The client-side copy of the filter: a row is wanted when it was modified at or after the cursor (at
 * whole seconds, as Zoho compares: ms are dropped from the lower bound) and not after `untilMs`. A row
 * without a readable last_modified_time is kept (its detail decides its version).
 */
export function inRange(cursorMs: number | undefined, untilMs: number): (lastModified: unknown) => boolean {
  const lowerMs = cursorMs === undefined ? undefined : Math.floor(cursorMs / 1000) * 1000;
  return (lastModified) => {
    const at = instantOf(lastModified);
    if (at === undefined) return true;
    return (lowerMs === undefined || at >= lowerMs) && at <= untilMs;
  };
}

/**
 * Minutes east of UTC of `timeZone` at `instant` (DST-aware: Zoho prints timestamps in the org's zone as
 * it was then). Undefined for a zone this runtime does not know.
 */
export function offsetMinutesAt(instant: Date, timeZone: string): number | undefined {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(instant)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (name === 'GMT') return 0;
    const m = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(name ?? '');
    if (!m) return undefined;
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
    return m[1] === '-' ? -minutes : minutes;
  } catch {
    return undefined;
  }
}
