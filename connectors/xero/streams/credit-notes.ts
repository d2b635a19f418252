import type { Stream } from '../../../src/connector/types.js';
import { mapXeroCreditNote } from '../map/credit-note.js';
import { XeroCreditNotesResponse, type XeroCreditNote } from '../schemas.js';
import { fetchXeroLookups } from './lookups.js';
import { readXeroList } from './read-xero-list.js';
import { toSourceRecord } from './source-record.js';
import { initialXeroState, XeroStreamState } from './stream-state.js';
import { ALL_STATUSES, whereFor } from './where-clause.js';

/**
 * Sales credit notes. https://developer.xero.com/documentation/api/accounting/creditnotes#get-creditnotes
 * GET /CreditNotes with `where=Type=="ACCRECCREDIT" AND (Status=="DRAFT" OR … OR Status=="DELETED")`: the
 * endpoint documents no `Statuses` parameter, so every status is asked for in `where` to be sure DELETED
 * ones are listed. Same ordering, paging, cursor and window as invoices (read-xero-list.ts).
 */
const statusFilter = `(${ALL_STATUSES.map((s) => `Status=="${s}"`).join(' OR ')})`;

export const creditNotesStream: Stream<XeroCreditNote, XeroStreamState> = {
  name: 'credit-notes',
  primaryKey: 'CreditNoteID',
  cursorField: 'UpdatedDateUTC',
  isSorted: true,
  state: XeroStreamState,
  initialState: initialXeroState,
  supportsWindow: true,
  read: (ctx, state) =>
    readXeroList<XeroCreditNote>(ctx, state, {
      path: 'CreditNotes',
      collection: 'CreditNotes',
      schema: XeroCreditNotesResponse,
      query: (c) => ({ where: whereFor('ACCRECCREDIT', c, statusFilter) }),
      toRecord: (raw) => toSourceRecord(raw, raw.CreditNoteID, raw.Status, 'GET /CreditNotes'),
    }),
  lookups: fetchXeroLookups,
  map: mapXeroCreditNote,
};
