import { z } from 'zod';
import { ENTITY_NAMES } from '../src/connector/entities.js';

/** Ids as the config allows them (connection ids: lowercase letters, digits, dashes). */
export const ConnectionId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a connection id from the config');
export const EntityParam = z.enum(ENTITY_NAMES);
/** An ERP record id: the vendor's, as text. */
export const ErpId = z.string().min(1).max(200);

/** A whole number in a query string (`?page=2`), bounded. */
export const QueryInt = (min: number, max: number, description: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .describe(description);

export const IsoInstant = z.string().describe('ISO 8601 instant');

const Verdict = z.enum(['fits', 'tight', 'exceeds']);
const CallsPerDay = z.object({ lists: z.number().int(), lookups: z.number().int(), total: z.number().int() });

/** What a connection's schedule costs in vendor calls a day, against its day cap and its app's month (src/pipeline/quota-projection.ts). */
export const QuotaProjectionSchema = z
  .object({
    perDay: z.object({ polling: CallsPerDay, safetyNet: CallsPerDay.nullable() }),
    day: z.object({ cap: z.number().int().nullable(), share: z.number().nullable(), verdict: Verdict }),
    month: z
      .object({
        app: z.string(),
        budget: z.number().int(),
        used: z.number().int(),
        connections: z.number().int(),
        perMonth: z.number(),
        projected: z.number(),
        share: z.number(),
        verdict: Verdict,
      })
      .nullable(),
    verdict: Verdict,
    message: z.string(),
  })
  .meta({ id: 'QuotaProjection' });
