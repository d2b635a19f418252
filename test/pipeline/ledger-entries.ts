import { fieldDigest } from '../../jobs/reconcile/field-digest.js';
import { contentHash } from '../../src/pipeline/content-hash.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';

/** Ledger entries as an upsert writes them for a Zoho Books (India) connection, one per entity kind. */
const invoiceId = '11149000000118272';
const invoice: LedgerEntry = {
  hash: contentHash({ invoice: invoiceId }),
  version: '2025-02-07T11:54:10.000Z',
  billingId: `inv.zoho-in.${invoiceId}`,
  number: 'INV-003750',
  sourceStatus: 'partially_paid',
  writtenAt: 1_795_592_093_207,
  jobId: 'ub-zoho-in-cc9e83ad4399c07a04de7009',
  fields: {
    invoiceNumber: 'INV-003750',
    invoiceDate: '2025-01-14',
    invoiceDueDate: '2025-01-29',
    invoiceCurrency: 'INR',
    exchangeRate: null,
    invoiceSubtotal: '171075.92',
    invoiceTax: '30793.68',
    invoiceTotal: '203072.6',
    invoicePaidAmount: '85290',
    invoiceAdjustedAmount: '0',
    buyerId: 'cust.zoho-in.1890000000010245',
    customerName: 'Himalaya Agro LLP',
    placeOfSupply: 'KA',
    erpId: invoiceId,
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    'digest:invoiceTax': fieldDigest({ total: 30793.68 }),
    'digest:lineItems': fieldDigest([{ itemName: 'Seeds', quantity: 12 }]),
    'digest:invoiceAmountAdjustments': fieldDigest([]),
    'digest:metaData': fieldDigest({ sourceStatus: 'partially_paid' }),
  },
  attachmentUrl: `https://books.zoho.in/portal/sandbox/invoices/${invoiceId}.pdf`,
};

const creditNoteId = '11149000000120011';
const creditNote: LedgerEntry = {
  hash: contentHash({ creditNote: creditNoteId }),
  version: '2025-02-09T08:00:00.000Z',
  billingId: `cn.zoho-in.${creditNoteId}`,
  number: 'CN-00042',
  sourceStatus: 'open',
  writtenAt: 1_795_592_100_000,
  jobId: 'ub-zoho-in-0a1b2c3d4e5f60718293a4b5',
};

const customerId = '1890000000010245';
const customer: LedgerEntry = {
  hash: contentHash({ customer: customerId }),
  version: '2025-01-02T09:30:00.000Z',
  billingId: `cust.zoho-in.${customerId}`,
  sourceStatus: 'active',
  writtenAt: 1_795_592_000_000,
  jobId: 'ub-zoho-in-ffeeddccbbaa998877665544',
};

export const ledgerEntries = { invoiceId, invoice, creditNoteId, creditNote, customerId, customer } as const;
