import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { finalizeCustomer, mapOk, type MapResult } from '../../../src/mapping/index.js';
import { QboCustomer } from '../schemas.js';
import { customerDetailsOf } from './customer-details.js';
import { readLookups } from './lookups.js';
import { parseRecord } from './parse-record.js';

/** QBO Customer → billing customer body (CustomerDetails); see customer-details.ts for the rules. */
export function mapCustomer(record: SourceRecord<unknown>, ctx: MapContext): MapResult<BillingBody> {
  const parsed = parseRecord(QboCustomer, record.raw, 'Customer');
  if (!parsed.ok) return parsed;
  const details = customerDetailsOf(parsed.value, ctx, readLookups(ctx.lookups));
  if (!details.ok) return details;
  const result = finalizeCustomer(details.value, details.warnings);
  return result.ok ? mapOk({ kind: 'customer', customer: result.value }, result.warnings) : result;
}
