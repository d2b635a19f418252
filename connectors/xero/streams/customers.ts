import { toCustomer } from '../map/customer.js';
import { XeroContactsResponse, type XeroListedContact } from '../schemas.js';
import type { Settings } from '../settings.js';
import { fetchLookups } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Selection } from '../../../src/connector/selection.js';
import { pager } from './read.js';
import { initialState, State } from './state.js';

/**
 * Suppliers are not customers: skipped and counted, not quarantined (they are not an error to fix). Not a
 * list filter: a contact with neither flag (no transactions yet) is a customer to be, and Xero's `where`
 * cannot say "not only a supplier".
 */
export const contactSelection: Selection<XeroListedContact> = [
  {
    field: 'IsSupplier/IsCustomer',
    valueIn: (raw) => (raw.IsSupplier === true && raw.IsCustomer !== true ? 'supplier' : 'customer'),
    takes: ['customer'],
    otherwise: 'a supplier only, not a customer',
    listFilter: false,
  },
];

/**
 * Customer contacts. https://developer.xero.com/documentation/api/accounting/contacts#get-contacts
 * GET /Contacts with `includeArchived=true` (archived contacts are hidden otherwise), `page` (without it
 * Xero may return every contact in one response), `order=UpdatedDateUTC ASC`, `If-Modified-Since`.
 * No `IsCustomer==true` filter: see map/customer.ts; contacts that are only suppliers are read and
 * skipped (the selection below: notForBilling). Contacts are never deleted (ARCHIVED is a status);
 * no document date, so no window (a backfill reads them all once). The lookups give the organisation's
 * country and base currency for contacts that name none (they are the documents' lookups, cached: no
 * extra call).
 */
export const customersStream = defineStream<XeroListedContact, State, Settings, any>({
  name: 'customers',
  primaryKey: 'ContactID',
  cursorField: 'UpdatedDateUTC',
  state: State,
  initialState,
  supportsWindow: false,
  statusOf: (raw) => raw.ContactStatus ?? 'ACTIVE',
  selection: contactSelection,
  lookups: fetchLookups,
  map: toCustomer,
  pager: pager({
    path: 'Contacts',
    schema: XeroContactsResponse,
    params: { includeArchived: 'true' },
    byIds: 'IDs',
  }),
});
