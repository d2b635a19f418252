import { toCustomer } from '../map/customer.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Settings } from '../settings.js';
import { fetchLookups, type QboLookups } from './lookups.js';
import { pager, type QboRecord } from './read.js';
import { initialState, State } from './state.js';

/**
 * Customers: `SELECT * FROM Customer WHERE Active IN (true, false) AND …` (read.ts). The default query
 * returns active customers only; QBO "deletes" a customer by making it inactive, so `Active IN (true,
 * false)` is what lets us see that change (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries).
 * Inactive is a status (customerStatus INACTIVE), never a delete, so there is no CDC read and no
 * listIds. Customers have no document date: a backfill window reads them all.
 */
export const customersStream = defineStream<QboRecord, State, Settings, QboLookups>({
  name: 'customers',
  primaryKey: 'Id',
  cursorField: 'MetaData.LastUpdatedTime',
  state: State,
  initialState,
  lookups: fetchLookups,
  supportsWindow: false,
  statusOf: (raw) => (raw.Active === false ? 'inactive' : 'active'),
  // No selection (src/connector/selection.ts): the supplier's side is another entity (Vendor), never read here.
  map: toCustomer,
  pager: pager({ entity: 'Customer', filters: ['Active IN (true, false)'], deletes: false }),
});
