import { z } from 'zod';

/**
 * Every Xero stream's state: `cursor`, the inclusive lower bound (UTC ISO, ms) of UpdatedDateUTC still to
 * read; null reads from the beginning. read.ts sends it as `If-Modified-Since` (whole seconds, one second
 * early) and drops what it has already handed out.
 */
export type State = { cursor: string | null };

export const State: z.ZodType<State> = z.object({ cursor: z.string().nullable() });

export function initialState(from?: string): State {
  return { cursor: from === undefined ? null : new Date(from).toISOString() };
}
