import { creditsByInvoice, generateCreditNotes } from './generate-credit-notes.js';
import { generateContacts } from './generate-contacts.js';
import { addCreditNoteIndiaFields, addIndiaFields } from './generate-india.js';
import { ensureSharedModifiedSecond, generateInvoices } from './generate-invoices.js';
import type { GeneratorContext } from './generator-context.js';
import { makeGstin, makePan } from '../kit/gstin.js';
import { IdSequence } from './id-sequence.js';
import { deriveInvoiceStatus } from './invoice-status.js';
import { buildItemCatalog } from './item-catalog.js';
import { SeededRandom } from '../kit/seeded-random.js';
import type {
  ContactRecord,
  CreditNoteRecord,
  CurrencyRecord,
  InvoiceRecord,
  OrganizationRecord,
} from './store-records.js';
import { TaxCatalog } from './tax-catalog.js';
import { formatZohoDate, localMidnight, parseZohoDate } from './zoho-timestamp.js';

export interface GenerateDataOptions {
  /** Same seed → identical data set. @defaultValue 1 */
  seed?: number | string;
  /** Number of invoices. @defaultValue 500 */
  records?: number;
  /** Number of customers. @defaultValue 80 */
  customers?: number;
  /** Vendor contacts mixed into /contacts (filtered out by `contact_type=customer`). @defaultValue 4 */
  vendors?: number;
  /** Number of credit notes. @defaultValue 60 */
  creditNotes?: number;
  /** First day of invoice activity, org time. @defaultValue "2025-01-01" */
  from?: string;
  /** Last day of invoice activity, org time; statuses are as of its end. @defaultValue "2025-12-31" */
  to?: string;
  /** @defaultValue "60012345678" */
  organizationId?: string;
}

export interface ZohoDataset extends GeneratorContext {
  seed: number | string;
  contacts: ContactRecord[];
  invoices: InvoiceRecord[];
  creditNotes: CreditNoteRecord[];
  /** Continues the seeded stream for records created later by mutations. */
  random: SeededRandom;
}

export const IST_OFFSET_MINUTES = 330;

function organization(random: SeededRandom, organizationId: string): OrganizationRecord {
  return {
    organization_id: organizationId,
    name: 'Nimbus Ledger Technologies Pvt Ltd',
    contact_name: 'Priya Nair',
    email: 'accounts@nimbusledger.example',
    offsetMinutes: IST_OFFSET_MINUTES,
    time_zone: 'Asia/Kolkata',
    state_code: 'KA',
    state: 'Karnataka',
    gst_no: makeGstin('29', makePan(random, 'C', 'N')),
    base_currency: 'INR',
    account_created_date: '2019-04-01',
  };
}

function currencies(ids: IdSequence): CurrencyRecord[] {
  return [
    { currency_id: ids.take(), currency_code: 'INR', currency_symbol: '₹', currency_name: 'INR- Indian Rupee' },
    { currency_id: ids.take(), currency_code: 'USD', currency_symbol: '$', currency_name: 'USD- U.S. Dollar' },
    { currency_id: ids.take(), currency_code: 'EUR', currency_symbol: '€', currency_name: 'EUR- Euro' },
  ];
}

/**
 * Builds a deterministic Zoho Books organisation: taxes, items, contacts, invoices and credit notes whose
 * amounts all add up exactly (see compute-document-amounts.ts). Each part draws from its own forked
 * stream, so changing one count does not reshuffle the other parts.
 */
export function generateData(options: GenerateDataOptions = {}): ZohoDataset {
  const seed = options.seed ?? 1;
  const from = options.from ?? '2025-01-01';
  const to = options.to ?? '2025-12-31';
  if (parseZohoDate(from) === undefined || parseZohoDate(to) === undefined || to < from)
    throw new Error(`generateData: bad date range ${from}..${to}`);
  const root = new SeededRandom(seed);
  const masterIds = new IdSequence(1890000000010000n, root.fork('master-ids'));
  const transactionIds = new IdSequence(11149000000060000n, root.fork('transaction-ids'));
  const org = organization(root.fork('organization'), options.organizationId ?? '60012345678');
  const ctx: GeneratorContext = {
    organization: org,
    currencies: currencies(masterIds),
    taxes: new TaxCatalog(masterIds),
    items: buildItemCatalog(masterIds),
    salesAccountId: masterIds.take(),
    masterIds,
    transactionIds,
    from,
    to,
    asOfMs: localMidnight(to, org.offsetMinutes) + 86_400_000 - 1000,
  };
  const contacts = generateContacts(ctx, root.fork('contacts'), options.customers ?? 80, options.vendors ?? 4);
  const customers = contacts.filter((c) => c.contact_type === 'customer');
  const invoices = generateInvoices(ctx, root.fork('invoices'), customers, options.records ?? 500);
  const creditNotes = generateCreditNotes(ctx, root.fork('credit-notes'), invoices, options.creditNotes ?? 60);
  const credits = creditsByInvoice(creditNotes);
  addIndiaFields(ctx, root.fork('india'), invoices, credits);
  addCreditNoteIndiaFields(ctx, root.fork('india-credit-notes'), creditNotes);
  const today = formatZohoDate(ctx.asOfMs, org.offsetMinutes);
  for (const invoice of invoices)
    invoice.status = deriveInvoiceStatus(invoice, credits.get(invoice.invoice_id) ?? 0, today);
  ensureSharedModifiedSecond(invoices);
  return { ...ctx, seed, contacts, invoices, creditNotes, random: root.fork('mutations') };
}
