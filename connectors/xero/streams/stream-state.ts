import { z } from 'zod';

/** Every Xero stream's state: the inclusive lower bound (UTC ISO, ms) of UpdatedDateUTC still to read. */
export const XeroStreamState = z.object({ cursor: z.string().nullable() });
export type XeroStreamState = z.infer<typeof XeroStreamState>;

export function initialXeroState(from?: string): XeroStreamState {
  return { cursor: from === undefined ? null : new Date(from).toISOString() };
}
