import { z } from 'zod';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';

/**
 * Every Xero stream's state: `cursor`, the inclusive lower bound (UTC ISO, ms) of UpdatedDateUTC still to
 * read; null reads from the beginning. read.ts sends it as `If-Modified-Since` (whole seconds, one second
 * early) and drops what it has already handed out.
 */
export type State = { cursor: string | null };

export const State: z.ZodType<State> = z.object({ cursor: z.string().nullable() });

export function initialState(from?: string): State {
  if (from === undefined) return { cursor: null };
  return { cursor: new Date(cursorMsOf(from, { source: 'xero', operation: 'start cursor' })!).toISOString() };
}
