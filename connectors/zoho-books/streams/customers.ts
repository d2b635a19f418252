import { toCustomer } from '../map/customer.js';
import { ZohoContactDetailResponse, ZohoContactList } from '../schemas.js';
import { fetchOrganizationLookups } from './lookups.js';
import { defineStream } from './read.js';

/**
 * Customers: `GET /contacts?contact_type=customer` + `GET /contacts/{id}` (contact persons, addresses, GST)
 * (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/contacts.yml).
 * Contacts have no document date, so a backfill window reads them all (supportsWindow: false). The
 * mapper needs no tax settings, so its lookups are the organisation only (country, base currency, state
 * for a contact that names none), which `read` fetches anyway: no tax-settings calls.
 */
export const customersStream = defineStream({
  name: 'customers',
  path: 'contacts',
  primaryKey: 'contact_id',
  detailKey: 'contact',
  listSchema: ZohoContactList,
  detailSchema: ZohoContactDetailResponse,
  listQuery: { contact_type: 'customer' },
  supportsWindow: false,
  lookups: fetchOrganizationLookups,
  map: toCustomer,
});
