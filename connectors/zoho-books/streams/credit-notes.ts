import { toCreditNote } from '../map/credit-note.js';
import { ZohoCreditNoteDetailResponse, ZohoCreditNoteList } from '../schemas.js';
import { fetchLookups } from './lookups.js';
import { defineStream } from './read.js';

/**
 * Credit notes: `GET /creditnotes` + `GET /creditnotes/{id}` (lines, taxes, and `invoices[]`: where the
 * credit was applied) (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/credit-notes.yml).
 */
export const creditNotesStream = defineStream({
  name: 'credit-notes',
  path: 'creditnotes',
  primaryKey: 'creditnote_id',
  detailKey: 'creditnote',
  listSchema: ZohoCreditNoteList,
  detailSchema: ZohoCreditNoteDetailResponse,
  supportsWindow: true,
  lookups: fetchLookups,
  map: toCreditNote,
});
