import { defineStream } from '../../../src/connector/define-stream.js';
import { toCustomer } from '../map/customer.js';
import type { Settings } from '../settings.js';
import { fetchLookups, type TallyLookups } from './lookups.js';
import { pager, type TallyRecord, type TallyStreamSpec } from './read.js';
import { initialState, State } from './state.js';

/** What a ledger read FETCHes (tally-database-loader's ledger fields, https://github.com/dhananjay1405/tally-database-loader). */
const LEDGER_FIELDS = [
  'GUID',
  'ALTERID',
  'NAME',
  'PARENT',
  'MAILINGNAME',
  'ADDRESS.LIST',
  'LEDSTATENAME',
  'COUNTRYNAME',
  'PINCODE',
  'EMAIL',
  'LEDGERMOBILE',
  'INCOMETAXNUMBER',
  'PARTYGSTIN',
  'GSTREGISTRATIONTYPE',
] as const;

/** What the stream reads from TallyPrime (Sundry Debtors ledgers): the worker in direct mode, the agent in agent mode. */
export const CUSTOMERS_READ: TallyStreamSpec = {
  counter: 'masters',
  type: 'Ledger',
  tag: 'LEDGER',
  fetch: LEDGER_FIELDS,
  select: '$Parent = "Sundry Debtors"',
};

/**
 * Customers: ledgers directly under the group "Sundry Debtors", in AlterID ranges of the masters
 * ($AltMstId). Ledgers have no document date: a backfill window reads them all. Ledgers have neither
 * drafts nor voids: every one is issued.
 */
export const customersStream = defineStream<TallyRecord, State, Settings, TallyLookups>({
  name: 'customers',
  primaryKey: 'GUID',
  cursorField: 'ALTERID',
  state: State,
  initialState,
  supportsWindow: false,
  statusOf: () => undefined,
  selection: [
    { field: 'PARENT', takes: ['Sundry Debtors'], otherwise: 'not a Sundry Debtors ledger', listFilter: true },
  ],
  lookups: fetchLookups,
  map: toCustomer,
  pager: pager(CUSTOMERS_READ),
});
