import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { finalizeCustomer, mapFail, mapOk, type MapResult, nonBlank, sourceMeta } from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { TallyLedger } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { customerDetailsOf } from './party.js';

/**
 * A ledger under Sundry Debtors (https://github.com/dhananjay1405/tally-database-loader, ledger fields) →
 * the billing customer body (party.ts) with metaData. Tally deletes a ledger only when no voucher uses
 * it, and leaves no trace: reconciliation's id diff finds it (streams/read.ts, listIds).
 */
export function toCustomer(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const l = parseRecord(s, TallyLedger, record.raw, 'ledger', 'Tally');
    readLookups(ctx.lookups);
    if (!nonBlank(l.NAME)) s.fail(mapFail('MISSING_FIELD', 'NAME is missing', { field: 'NAME' }));
    const details = customerDetailsOf(l, ctx.connectionId);
    details.metaData = sourceMeta({
      system: 'tally',
      status: 'active',
      version: record.version,
      alterId: Number(l.ALTERID),
      ledgerGroup: nonBlank(l.PARENT),
      gstRegistrationType: nonBlank(l.GSTREGISTRATIONTYPE),
    });
    const result = finalizeCustomer(details, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'customer', customer: result.value }, result.warnings) : result;
  });
}
