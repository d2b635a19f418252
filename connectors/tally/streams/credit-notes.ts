import { defineStream } from '../../../src/connector/define-stream.js';
import { toCreditNote } from '../map/credit-note.js';
import type { Settings } from '../settings.js';
import { PARTY_GUID, VOUCHER_FIELDS } from './invoices.js';
import { fetchLookups, type TallyLookups } from './lookups.js';
import { pager, type TallyRecord, type TallyStreamSpec, voucherStatusOf } from './read.js';
import { initialState, State } from './state.js';

/** What the stream reads from TallyPrime (Credit Note vouchers): the worker in direct mode, the agent in agent mode. */
export const CREDIT_NOTES_READ: TallyStreamSpec = {
  counter: 'vouchers',
  type: 'Voucher',
  tag: 'VOUCHER',
  fetch: VOUCHER_FIELDS,
  select: '$VoucherTypeName = "Credit Note"',
  computes: PARTY_GUID,
};

/** Credit notes: vouchers of type "Credit Note", with the party's bill allocations (the invoices they settle). */
export const creditNotesStream = defineStream<TallyRecord, State, Settings, TallyLookups>({
  name: 'credit-notes',
  primaryKey: 'GUID',
  cursorField: 'ALTERID',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf: voucherStatusOf,
  lifecycle: { draft: ['optional'], void: ['cancelled'] },
  selection: [
    { field: 'VOUCHERTYPENAME', takes: ['Credit Note'], otherwise: 'not a Credit Note voucher', listFilter: true },
  ],
  lookups: fetchLookups,
  map: toCreditNote,
  pager: pager(CREDIT_NOTES_READ),
});
