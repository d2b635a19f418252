import { mapZohoCreditNote } from '../map/credit-note.js';
import { ZohoCreditNoteDetailResponse, ZohoCreditNoteList } from '../schemas.js';
import { zohoStream } from './zoho-stream.js';

/** Credit notes: `GET /creditnotes` + `GET /creditnotes/{id}` (lines, taxes, and `invoices[]`: where the credit was applied). */
export const creditNotesStream = zohoStream({
  name: 'credit-notes',
  path: 'creditnotes',
  primaryKey: 'creditnote_id',
  detailKey: 'creditnote',
  listSchema: ZohoCreditNoteList,
  detailSchema: ZohoCreditNoteDetailResponse,
  supportsWindow: true,
  needsTaxes: true,
  map: mapZohoCreditNote,
});
