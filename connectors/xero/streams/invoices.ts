import type { Stream } from '../../../src/connector/types.js';
import { mapXeroInvoice } from '../map/invoice.js';
import { XeroInvoicesResponse, type XeroInvoice } from '../schemas.js';
import { fetchXeroLookups } from './lookups.js';
import { readXeroList } from './read-xero-list.js';
import { toSourceRecord } from './source-record.js';
import { initialXeroState, XeroStreamState } from './stream-state.js';
import { ALL_STATUSES, whereFor } from './where-clause.js';

/**
 * Sales invoices. https://developer.xero.com/documentation/api/accounting/invoices#get-invoices
 * GET /Invoices with `where=Type=="ACCREC"` (the endpoint also returns ACCPAY bills), every status via
 * `Statuses=` (so VOIDED and DELETED are seen), `order=UpdatedDateUTC ASC`, `page` (line items only come
 * with it), `pageSize`, `If-Modified-Since`. Paging strategy and cursor safety: read-xero-list.ts.
 * Deletes: Status DELETED → SourceRecord.deleted; VOIDED is a status. Window: `Date>=DateTime(..) AND
 * Date<=DateTime(..)`.
 */
export const invoicesStream: Stream<XeroInvoice, XeroStreamState> = {
  name: 'invoices',
  primaryKey: 'InvoiceID',
  cursorField: 'UpdatedDateUTC',
  isSorted: true,
  state: XeroStreamState,
  initialState: initialXeroState,
  supportsWindow: true,
  read: (ctx, state) =>
    readXeroList<XeroInvoice>(ctx, state, {
      path: 'Invoices',
      collection: 'Invoices',
      schema: XeroInvoicesResponse,
      query: (c) => ({ where: whereFor('ACCREC', c), Statuses: ALL_STATUSES.join(',') }),
      toRecord: (raw) => toSourceRecord(raw, raw.InvoiceID, raw.Status, 'GET /Invoices'),
    }),
  lookups: fetchXeroLookups,
  map: mapXeroInvoice,
};
