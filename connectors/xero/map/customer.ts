import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { finalizeCustomer, mapFail, mapOk, type MapResult, sourceMeta, nonBlank } from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { XeroContact } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { customerDetailsOf } from './party.js';
import { contactFieldsOf } from './tags.js';

/**
 * A Xero contact (https://developer.xero.com/documentation/api/accounting/contacts) → the billing
 * customer body (CustomerDetails, party.ts) with metaData. Whether a contact is for billing at all is the
 * stream's decision, made once: the customers stream reads every contact, because IsCustomer is derived
 * by Xero and may flip without moving UpdatedDateUTC, so an `IsCustomer==true` filter could miss a
 * contact on an incremental read; a contact that is only a supplier (IsSupplier true, IsCustomer not)
 * comes marked notForBilling and is skipped and counted before any mapping, so it never reaches this
 * mapper or billing. ARCHIVED contacts map with customerStatus INACTIVE (Xero never deletes contacts; a
 * merge shows in metaData.mergedTo). tags = the contact's default sales tracking (tags.ts).
 */
export function toCustomer(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const raw = parseRecord(s, XeroContact, record.raw, 'contact', 'Xero');
    if (!raw.Name?.trim()) s.fail(mapFail('MISSING_FIELD', 'Name is missing', { field: 'Name' }));
    const details = customerDetailsOf(raw, ctx.connectionId, readLookups(ctx.lookups));
    const fields = contactFieldsOf(
      s,
      raw,
      ctx.fields,
      sourceMeta({
        system: 'xero',
        status: raw.ContactStatus ?? 'ACTIVE',
        version: record.version,
        erpNumber: nonBlank(raw.ContactNumber),
        mergedTo: raw.MergedToContactID || undefined,
      }),
    );
    if (fields.tags) details.tags = fields.tags;
    details.metaData = fields.metaData;
    const result = finalizeCustomer(details, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'customer', customer: result.value }, result.warnings) : result;
  });
}
