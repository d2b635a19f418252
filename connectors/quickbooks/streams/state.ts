import { z } from 'zod';

/**
 * The state of every QuickBooks stream: `cursor`, the inclusive lower bound (UTC ISO) of the next read
 * on MetaData.LastUpdatedTime; null reads from the beginning. The reads are sorted by it, so each page's
 * state is its last record's timestamp and the pipeline may save it after every page (read.ts).
 */
export type State = { cursor: string | null };

export const State: z.ZodType<State> = z.object({ cursor: z.string().nullable() });

export function initialState(from?: string): State {
  return { cursor: from ?? null };
}
