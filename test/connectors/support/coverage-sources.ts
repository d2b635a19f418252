import { toCreditNote as qboCreditNote } from '../../../connectors/quickbooks/map/credit-note.js';
import { toCustomer as qboCustomer } from '../../../connectors/quickbooks/map/customer.js';
import { toInvoice as qboInvoice } from '../../../connectors/quickbooks/map/invoice.js';
import { buildLookups } from '../../../connectors/quickbooks/streams/lookups.js';
import { toCreditNote as xeroCreditNote } from '../../../connectors/xero/map/credit-note.js';
import { toCustomer as xeroCustomer } from '../../../connectors/xero/map/customer.js';
import { toInvoice as xeroInvoice } from '../../../connectors/xero/map/invoice.js';
import { toCreditNote as zohoCreditNote } from '../../../connectors/zoho-books/map/credit-note.js';
import { toCustomer as zohoCustomer } from '../../../connectors/zoho-books/map/customer.js';
import { toInvoice as zohoInvoice } from '../../../connectors/zoho-books/map/invoice.js';
import type { MapContext } from '../../../src/connector/types.js';
import * as qbo from '../quickbooks/fixtures.js';
import * as xero from '../xero/fixtures.js';
import * as zoho from '../zoho-books/fixtures.js';
import { fixtureFiles, type Mapped, type Mapper, type Vendor } from './field-coverage.js';

/**
 * Where each vendor's field coverage is measured: every raw fixture of test/fixtures/<vendor>/ (not the
 * expected bodies, not the organisation's lookups), mapped by the connector's own mapper in the context
 * its expected-bodies test uses. A fixture added to the folder is measured without touching this file
 * (test/fixtures/<vendor>/README.md says what each one shows); a fixture built to fail (an inconsistent
 * total, a missing rate) maps to a failure and adds nothing.
 */
const stem = (file: string) => file.replace(/\.json$/, '');

/** Zoho Books: detail responses `{invoice}`, `{creditnote}` or `{contact}`, in the fixtures' INR organisation. */
function zohoBooks(): Mapped[] {
  const mappers = { invoice: zohoInvoice, creditnote: zohoCreditNote, contact: zohoCustomer } as const;
  return fixtureFiles('zoho-books', /^lookups/).flatMap((file) => {
    const json = zoho.fixture<Record<string, unknown>>(stem(file));
    return (Object.keys(mappers) as Array<keyof typeof mappers>)
      .filter((key) => key in json)
      .map((key) => ({
        file,
        result: (mappers[key] as Mapper)(zoho.record(stem(file), key), zoho.mapContext() as MapContext),
      }));
  });
}

/** QuickBooks: one entity per file, by its name; the customer record the stream attaches where the expected body has it. */
function quickBooks(): Mapped[] {
  const attached: Record<string, string> = {
    'invoice-intra-state': 'customer-registered',
    'credit-memo-applied': 'customer-registered',
  };
  const mapperOf = (name: string): Mapper | undefined =>
    name.startsWith('invoice-')
      ? qboInvoice
      : name.startsWith('credit-memo-')
        ? qboCreditNote
        : name.startsWith('customer-')
          ? qboCustomer
          : undefined;
  return fixtureFiles('quickbooks', /^lookups/).flatMap((file) => {
    const name = stem(file);
    const map = mapperOf(name);
    if (!map) throw new Error(`test/fixtures/quickbooks/${file}: name it invoice-*, credit-memo-* or customer-*`);
    const raw = { ...qbo.fixture(name), ...(attached[name] ? { _customer: qbo.fixture(attached[name]) } : {}) };
    const au = name.includes('-au-');
    const ctx = au
      ? qbo.mapContext(
          { baseCurrency: 'AUD' },
          buildLookups(qbo.fixture('lookups-au') as Parameters<typeof buildLookups>[0]),
        )
      : qbo.mapContext();
    return [{ file, result: map(qbo.sourceRecord(raw), ctx) }];
  });
}

/** Xero: list responses; the organisation by the file's name (AUD, UK, else India); contacts without lookups. */
function xeroFixtures(): Mapped[] {
  const org = (connectionId: string, baseCurrency: string, lookups: MapContext['lookups']): MapContext => ({
    connectionId,
    originSource: 'EXTERNAL_SYSTEM_C',
    baseCurrency,
    lookups,
  });
  const ctxOf = (file: string) =>
    file.includes('aud-org')
      ? org('xero-au', 'AUD', xero.australiaLookups)
      : file.includes('-uk-')
        ? org('xero-uk', 'GBP', xero.ukLookups)
        : org('xero-in', 'INR', xero.indiaLookups);
  return fixtureFiles('xero', /^(organisation|tax-rates)-/).flatMap((file): Mapped[] => {
    if (file.startsWith('contacts'))
      return xero.contactRecords(file).map((record) => ({
        file,
        result: xeroCustomer(record, org('xero-in', 'INR', {})),
      }));
    if (file.startsWith('invoice-')) return [{ file, result: xeroInvoice(xero.invoiceRecord(file), ctxOf(file)) }];
    if (file.startsWith('credit-note-'))
      return [{ file, result: xeroCreditNote(xero.creditNoteRecord(file), ctxOf(file)) }];
    throw new Error(`test/fixtures/xero/${file}: name it invoice-*, credit-note-* or contacts*`);
  });
}

export const COVERAGE_SOURCES: Record<Vendor, () => Mapped[]> = {
  'Zoho Books': zohoBooks,
  QuickBooks: quickBooks,
  Xero: xeroFixtures,
};
