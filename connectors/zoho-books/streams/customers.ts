import { mapZohoContact } from '../map/customer.js';
import { ZohoContactDetailResponse, ZohoContactList } from '../schemas.js';
import { zohoStream } from './zoho-stream.js';

/**
 * Customers: `GET /contacts?contact_type=customer` + `GET /contacts/{id}` (contact persons, addresses, GST).
 * Contacts have no document date, so a backfill window reads them all (supportsWindow: false).
 */
export const customersStream = zohoStream({
  name: 'customers',
  path: 'contacts',
  primaryKey: 'contact_id',
  detailKey: 'contact',
  listSchema: ZohoContactList,
  detailSchema: ZohoContactDetailResponse,
  listQuery: { contact_type: 'customer' },
  supportsWindow: false,
  needsTaxes: false,
  map: mapZohoContact,
});
