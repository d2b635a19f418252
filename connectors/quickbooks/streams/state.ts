import { z } from 'zod';

/** Every QBO stream's state: the UTC ISO lower bound of the next read (MetaData.LastUpdatedTime), or null. */
export const QboStreamState = z.object({ cursor: z.string().nullable() });
export type QboStreamState = z.infer<typeof QboStreamState>;

export function initialState(from?: string): QboStreamState {
  return { cursor: from ?? null };
}
