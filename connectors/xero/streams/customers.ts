import type { Stream } from '../../../src/connector/types.js';
import { mapXeroContact } from '../map/customer.js';
import { XeroContactsResponse, type XeroListedContact } from '../schemas.js';
import { readXeroList } from './read-xero-list.js';
import { toSourceRecord } from './source-record.js';
import { initialXeroState, XeroStreamState } from './stream-state.js';

/**
 * Customer contacts. https://developer.xero.com/documentation/api/accounting/contacts#get-contacts
 * GET /Contacts with `includeArchived=true` (archived contacts are hidden otherwise), `page` (without it
 * Xero may return every contact in one response), `order=UpdatedDateUTC ASC`, `If-Modified-Since`.
 * No `IsCustomer==true` filter: see map/customer.ts. Contacts are never deleted (ARCHIVED is a status);
 * no document date, so no window (a backfill reads them all once).
 */
export const customersStream: Stream<XeroListedContact, XeroStreamState> = {
  name: 'customers',
  primaryKey: 'ContactID',
  cursorField: 'UpdatedDateUTC',
  isSorted: true,
  state: XeroStreamState,
  initialState: initialXeroState,
  supportsWindow: false,
  read: (ctx, state) =>
    readXeroList<XeroListedContact>(ctx, state, {
      path: 'Contacts',
      collection: 'Contacts',
      schema: XeroContactsResponse,
      query: () => ({ includeArchived: 'true' }),
      toRecord: (raw) => toSourceRecord(raw, raw.ContactID, raw.ContactStatus ?? 'ACTIVE', 'GET /Contacts'),
    }),
  map: mapXeroContact,
};
