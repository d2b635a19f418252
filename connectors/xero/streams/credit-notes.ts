import { toCreditNote } from '../map/credit-note.js';
import { XeroCreditNotesResponse, type XeroCreditNote } from '../schemas.js';
import type { Settings } from '../settings.js';
import { fetchLookups } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import { signedDocumentUrl } from '../../../src/documents/document-links.js';
import type { Selection } from '../../../src/connector/selection.js';
import { pager } from './read.js';
import { initialState, State } from './state.js';
import { ALL_STATUSES } from './where-clause.js';

/** Supplier credit notes share the endpoint and the CREDITNOTE webhook events; `GET /CreditNotes/{id}` returns them. */
export const creditNoteSelection: Selection<XeroCreditNote> = [
  { field: 'Type', takes: ['ACCRECCREDIT'], otherwise: 'a supplier credit note, not a sales one', listFilter: true },
];

/**
 * Sales credit notes. https://developer.xero.com/documentation/api/accounting/creditnotes#get-creditnotes
 * GET /CreditNotes with `where=Type=="ACCRECCREDIT" AND (Status=="DRAFT" OR … OR Status=="DELETED")`: the
 * endpoint documents no `Statuses` parameter, so every status is asked for in `where` to be sure DELETED
 * ones are listed. Same ordering, paging, cursor and window as invoices (read.ts).
 */
const statusFilter = `(${ALL_STATUSES.map((s) => `Status=="${s}"`).join(' OR ')})`;

export const creditNotesStream = defineStream<XeroCreditNote, State, Settings, any>({
  name: 'credit-notes',
  primaryKey: 'CreditNoteID',
  cursorField: 'UpdatedDateUTC',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf: (raw) => raw.Status,
  // Not issued yet: DRAFT, and SUBMITTED (awaiting approval); VOIDED stays a document, never a delete.
  lifecycle: { draft: ['DRAFT', 'SUBMITTED'], void: ['VOIDED'] },
  deleted: ['DELETED'],
  selection: creditNoteSelection,
  lookups: fetchLookups,
  map: toCreditNote,
  documentUrl: signedDocumentUrl('credit-notes'),
  pager: pager({
    path: 'CreditNotes',
    schema: XeroCreditNotesResponse,
    whereAlso: statusFilter,
    byIds: 'single',
  }),
});
