import { toCreditNote } from '../map/credit-note.js';
import { ZohoCreditNoteDetailResponse, ZohoCreditNoteList } from '../schemas.js';
import { fetchLookups, type ZohoLookups } from './lookups.js';
import { defineStream } from '../../../src/connector/define-stream.js';
import type { Settings } from '../settings.js';
import { pager, statusOf, type ZohoRecord } from './read.js';
import { initialState, State } from './state.js';

/**
 * Credit notes: `GET /creditnotes` + `GET /creditnotes/{id}` (lines, taxes, and `invoices[]`: where the
 * credit was applied) (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/credit-notes.yml).
 */
export const creditNotesStream = defineStream<ZohoRecord, State, Settings, ZohoLookups>({
  name: 'credit-notes',
  primaryKey: 'creditnote_id',
  cursorField: 'last_modified_time',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf,
  // A document Zoho holds as `draft` is not issued yet, one as `void` was voided
  // (https://www.zoho.com/books/api/v3/invoices/, https://www.zoho.com/books/api/v3/credit-notes/).
  lifecycle: { draft: ['draft'], void: ['void'], ignoreCase: true },
  // No selection (src/connector/selection.ts): Zoho keeps suppliers' documents apart (bills, vendor credits).
  lookups: fetchLookups,
  map: toCreditNote,
  pager: pager({
    path: 'creditnotes',
    detailKey: 'creditnote',
    listSchema: ZohoCreditNoteList,
    detailSchema: ZohoCreditNoteDetailResponse,
  }),
});
