import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { finalizeCustomer, mapOk, type MapResult } from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { QboCustomer } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { customerOf } from './party.js';

/** QBO Customer → billing customer body (CustomerDetails); party.ts has the rules. */
export function toCustomer(record: SourceRecord<unknown>, ctx: MapContext<unknown>): MapResult<BillingBody> {
  return mapping((s) => {
    const customer = parseRecord(s, QboCustomer, record.raw, 'Customer', 'QuickBooks');
    const details = customerOf(s, customer, ctx, readLookups(ctx.lookups));
    const result = finalizeCustomer(details, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'customer', customer: result.value }, result.warnings) : result;
  });
}
