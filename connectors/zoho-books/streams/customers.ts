import { toCustomer } from '../map/customer.js';
import { ZohoContactDetailResponse, ZohoContactList } from '../schemas.js';
import { fetchOrganizationLookups, type ZohoOrganizationInfo } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Selection } from '../../../src/connector/selection.js';
import type { Settings } from '../settings.js';
import { pager, statusOf, type ZohoRecord } from './read.js';
import { initialState, State } from './state.js';

/**
 * Vendors share the contacts list (without the filter) and the contacts webhook; `GET /contacts/{id}`
 * returns them with `contact_type` vendor.
 */
export const contactSelection: Selection<ZohoRecord> = [
  { field: 'contact_type', takes: ['customer'], otherwise: 'a vendor, not a customer', listFilter: true },
];

/**
 * Customers: `GET /contacts?contact_type=customer` + `GET /contacts/{id}` (contact persons, addresses, GST)
 * (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/contacts.yml).
 * Contacts have no document date, so a backfill window reads them all (supportsWindow: false). The
 * mapper needs no tax settings, so its lookups are the organisation only (country, base currency, state
 * for a contact that names none), which `read` fetches anyway: no tax-settings calls.
 */
export const customersStream = defineStream<ZohoRecord, State, Settings, { organization: ZohoOrganizationInfo }>({
  name: 'customers',
  primaryKey: 'contact_id',
  cursorField: 'last_modified_time',
  state: State,
  initialState,
  supportsWindow: false,
  statusOf,
  // Contacts have neither drafts nor voids: every one is issued.
  selection: contactSelection,
  lookups: fetchOrganizationLookups,
  map: toCustomer,
  pager: pager({
    path: 'contacts',
    detailKey: 'contact',
    listSchema: ZohoContactList,
    detailSchema: ZohoContactDetailResponse,
  }),
});
