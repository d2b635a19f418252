import type { CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/index.js';
import {
  buyerIdFor,
  finalizeCustomer,
  mapOk,
  withOrganisationDefaults,
  type MapResult,
  sourceMeta,
} from '../../../src/mapping/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { ZohoContact } from '../schemas.js';
import {
  addressesOf,
  addressOf,
  contactsOf,
  countryFields,
  customerStateCode,
  gstinIdentifiersOf,
  organisationDefaultsOf,
} from './party.js';
import { labelsOf } from './labels.js';

/**
 * Zoho `GET /contacts/{id}` (contact_type customer;
 * https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/contacts.yml)
 * → billing CustomerDetails.
 * - buyerId: deterministic from (connection, contact_id); erpId: the contact_id.
 * - taxIdentifiers: GSTIN from gst_no; PAN from pan_no when the org has it.
 * - registeredAddress: the billing address; addresses: billing and shipping.
 * - contactsData: contact_persons (the primary one first); primary email/phone/person from it, else the
 *   contact's own email/phone.
 * - stateCode: the GST state code ("29") from the GSTIN, else from an Indian billing address.
 * - customerStatus: active → LIVE, inactive → INACTIVE; Zoho's status also in metaData.sourceStatus.
 * - country, currency and state the contact does not name: the organisation's (organisationDefaultsOf).
 */
export function toCustomer(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const c = parseRecord(s, ZohoContact, record.raw, 'contact', 'Zoho');
    const persons = [...(c.contact_persons ?? [])].sort(
      (a, b) => Number(b.is_primary_contact === true) - Number(a.is_primary_contact === true),
    );
    const contacts = contactsOf(persons);
    const primary = contacts?.[0];
    const country = countryFields(c.billing_address, (m) => s.warn(m));
    const registered = addressOf(c.billing_address);
    const addresses = addressesOf(c.billing_address, c.shipping_address);
    const pan = c.pan_no?.trim().toUpperCase();
    const taxIdentifiers: TaxIdentifier[] = [
      ...(gstinIdentifiersOf(c.gst_no) ?? []),
      ...(pan ? [{ type: 'PAN' as const, value: pan }] : []),
    ];
    const stateCode = customerStateCode(c.gst_no, c.billing_address, country.countryCode);
    const email = primary?.primaryEmail || c.email?.trim() || undefined;
    const phone = primary?.primaryPhone || c.phone?.trim() || c.mobile?.trim() || undefined;
    const company = c.company_name?.trim() || undefined;
    const status = c.status?.trim().toLowerCase() || 'unknown';
    const currency = c.currency_code?.trim().toUpperCase() || undefined;
    const gstTreatment = c.gst_treatment?.trim() || undefined;
    const subType = c.customer_sub_type?.trim() || undefined;

    const labels = labelsOf(
      s,
      c,
      ctx.fields,
      sourceMeta({
        system: 'zoho-books',
        status,
        version: record.version,
        gstTreatment: gstTreatment || undefined,
        customerSubType: subType || undefined,
      }),
    );

    const draft: CustomerDetailsInput = {
      buyerId: buyerIdFor(ctx.connectionId, c.contact_id),
      isManuallyCreated: false,
      name: c.contact_name.trim(),
      ...(company && company !== c.contact_name.trim() ? { alias: company } : {}),
      ...(taxIdentifiers.length > 0 ? { taxIdentifiers } : {}),
      ...(registered ? { registeredAddress: registered } : {}),
      ...(addresses ? { addresses } : {}),
      ...(contacts ? { contactsData: contacts } : {}),
      ...(primary ? { customerContactPerson: primary.name } : {}),
      ...(email ? { primaryEmail: email } : {}),
      ...(phone ? { primaryPhone: phone } : {}),
      ...(stateCode ? { stateCode } : {}),
      ...country,
      ...(currency ? { currency } : {}),
      ...(status === 'active'
        ? { customerStatus: 'LIVE' as const }
        : status === 'inactive'
          ? { customerStatus: 'INACTIVE' as const }
          : {}),
      erpId: c.contact_id,
      ...(labels.tags ? { tags: labels.tags } : {}),
      metaData: labels.metaData,
    };
    const result = finalizeCustomer(withOrganisationDefaults(draft, organisationDefaultsOf(ctx.lookups)), [
      ...new Set(s.warnings),
    ]);
    return result.ok ? mapOk<BillingBody>({ kind: 'customer', customer: result.value }, result.warnings) : result;
  });
}
