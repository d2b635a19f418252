import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { finalizeCustomer, mapFail, mapOk, type MapResult } from '../../../src/mapping/index.js';
import type { XeroListedContact } from '../schemas.js';
import { customerDetailsOf } from './customer-details.js';

/**
 * A Xero contact → the billing customer body (CustomerDetails, customer-details.ts) with metaData.
 * Contacts that are only suppliers (IsSupplier true, IsCustomer false) are UNSUPPORTED: the stream reads
 * every contact, because IsCustomer is derived by Xero and may flip without moving UpdatedDateUTC, so an
 * `IsCustomer==true` filter could miss a contact on an incremental read. ARCHIVED contacts map with
 * customerStatus INACTIVE (Xero never deletes contacts; a merge shows in metaData.mergedTo).
 */
export function mapXeroContact(record: SourceRecord<XeroListedContact>, ctx: MapContext): MapResult<BillingBody> {
  const raw = record.raw;
  if (raw.IsSupplier === true && raw.IsCustomer !== true) {
    return mapFail('UNSUPPORTED', 'Xero contact is a supplier only, not a customer', { field: 'IsCustomer' });
  }
  if (!raw.Name?.trim()) return mapFail('MISSING_FIELD', 'Name is missing', { field: 'Name' });
  const details = customerDetailsOf(raw, ctx.connectionId);
  details.metaData = {
    sourceSystem: 'xero',
    sourceStatus: raw.ContactStatus ?? 'ACTIVE',
    sourceVersion: record.version,
    ...(raw.ContactNumber?.trim() ? { erpNumber: raw.ContactNumber.trim() } : {}),
    ...(raw.MergedToContactID ? { mergedTo: raw.MergedToContactID } : {}),
  };
  const result = finalizeCustomer(details);
  return result.ok ? mapOk({ kind: 'customer', customer: result.value }, result.warnings) : result;
}
