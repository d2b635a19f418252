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
