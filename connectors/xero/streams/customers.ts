import { toCustomer } from '../map/customer.js';
import { XeroContactsResponse, type XeroListedContact } from '../schemas.js';
import { defineStream } from './read.js';

/**
 * Customer contacts. https://developer.xero.com/documentation/api/accounting/contacts#get-contacts
 * GET /Contacts with `includeArchived=true` (archived contacts are hidden otherwise), `page` (without it
 * Xero may return every contact in one response), `order=UpdatedDateUTC ASC`, `If-Modified-Since`.
 * No `IsCustomer==true` filter: see map/customer.ts. Contacts are never deleted (ARCHIVED is a status);
 * no document date, so no window (a backfill reads them all once). The mapper needs no lookups.
 */
export const customersStream = defineStream<XeroListedContact>({
  name: 'customers',
  path: 'Contacts',
  primaryKey: 'ContactID',
  schema: XeroContactsResponse,
  query: () => ({ includeArchived: 'true' }),
  statusOf: (raw) => raw.ContactStatus ?? 'ACTIVE',
  supportsWindow: false,
  map: toCustomer,
});
