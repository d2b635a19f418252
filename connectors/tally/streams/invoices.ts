import { defineStream } from '../../../src/connector/define-stream.js';
import { toInvoice } from '../map/invoice.js';
import type { Settings } from '../settings.js';
import { fetchLookups, type TallyLookups } from './lookups.js';
import { pager, type TallyRecord, type TallyStreamSpec, voucherStatusOf } from './read.js';
import { initialState, State } from './state.js';

/** What a voucher read FETCHes (tally-database-loader's voucher fields, https://github.com/dhananjay1405/tally-database-loader). */
export const VOUCHER_FIELDS = [
  'GUID',
  'ALTERID',
  'MASTERID',
  'DATE',
  'VOUCHERTYPENAME',
  'VOUCHERNUMBER',
  'REFERENCE',
  'NARRATION',
  'PARTYLEDGERNAME',
  'PARTYGSTIN',
  'PLACEOFSUPPLY',
  'ISINVOICE',
  'ISCANCELLED',
  'ISOPTIONAL',
  'IRN',
  'IRNACKNO',
  'IRNACKDATE',
  'ALLINVENTORYENTRIES.LIST',
  'LEDGERENTRIES.LIST',
] as const;

/** The party ledger's GUID beside its name: external method access in the read (the customer's id). */
export const PARTY_GUID: ReadonlyArray<readonly [string, string]> = [
  ['PartyLedgerGUID', '$GUID:Ledger:$PartyLedgerName'],
];

/** What the stream reads from TallyPrime (Sales vouchers): the worker in direct mode, the agent in agent mode. */
export const INVOICES_READ: TallyStreamSpec = {
  counter: 'vouchers',
  type: 'Voucher',
  tag: 'VOUCHER',
  fetch: VOUCHER_FIELDS,
  select: '$VoucherTypeName = "Sales"',
  computes: PARTY_GUID,
};

/**
 * Invoices: vouchers of type "Sales", in AlterID ranges (read.ts). A cancelled voucher is a void; an
 * optional one (not posted to the books) a draft.
 */
export const invoicesStream = defineStream<TallyRecord, State, Settings, TallyLookups>({
  name: 'invoices',
  primaryKey: 'GUID',
  cursorField: 'ALTERID',
  state: State,
  initialState,
  supportsWindow: true,
  statusOf: voucherStatusOf,
  lifecycle: { draft: ['optional'], void: ['cancelled'] },
  // A read by GUID may name another voucher type (a receipt): it is not for billing.
  selection: [{ field: 'VOUCHERTYPENAME', takes: ['Sales'], otherwise: 'not a Sales voucher', listFilter: true }],
  lookups: fetchLookups,
  map: toInvoice,
  pager: pager(INVOICES_READ),
});
