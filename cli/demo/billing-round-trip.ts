import { BillingClient } from '../../src/billing/client.js';
import { updatedBetween, utcDate } from '../../src/billing/dates.js';
import { startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';

export interface RoundTripSummary {
  steps: Array<{ step: string; ok: boolean; detail: string }>;
  ok: boolean;
}

const BUYER = {
  buyerId: 'demo-cust-1',
  name: 'Bharat Tooling Pvt Ltd',
  taxIdentifiers: [{ type: 'GSTIN' as const, value: '29AABCB1234F1Z5' }],
};

/** The round trip's steps, in order: each says what it found. */
const STEPS: Array<[string, (client: BillingClient) => Promise<string>]> = [
  ['upsert 3 invoices', upsertInvoices],
  ['upsert a credit note applied to INV-1002', upsertCreditNote],
  ['create and search customers', createAndSearchCustomers],
  ['list invoices updated today (UPDATED_AT, lifecycle statuses explicit)', listInvoicesUpdatedToday],
  ['attach and list attachments', attachAndList],
  ['fetch contracts and rate cards', fetchContractsAndRateCards],
];

/**
 * A scripted round trip through the real client against the billing emulator on a free loopback port:
 * upsert invoices and a credit note, create and search customers, list with filters, attach and list
 * attachments, fetch contracts and rate cards. Every response is schema-validated by the client.
 */
export async function runBillingRoundTrip(log: (line: string) => void = console.log): Promise<RoundTripSummary> {
  const key = 'demo-key';
  const attachKey = 'demo-attach-key';
  const emu = await startBillingEmulator({
    port: 0,
    keys: [{ key, companyId: 'demo-co' }],
    attachmentKeys: [{ key: attachKey, companyId: 'demo-co' }],
    seed: 1,
  });
  const client = new BillingClient({ baseUrl: emu.url, apiKey: key, attachmentKey: attachKey });
  const steps: RoundTripSummary['steps'] = [];
  log(`billing emulator on ${emu.url}`);
  try {
    for (const [name, fn] of STEPS) {
      try {
        const detail = await fn(client);
        steps.push({ step: name, ok: true, detail });
        log(`  ✔ ${name}: ${detail}`);
      } catch (e) {
        steps.push({ step: name, ok: false, detail: (e as Error).message });
        log(`  ✘ ${name}: ${(e as Error).message}`);
      }
    }
  } finally {
    await emu.close();
  }
  return { steps, ok: steps.every((s) => s.ok) };
}

async function upsertInvoices(client: BillingClient): Promise<string> {
  for (let i = 1; i <= 3; i++) {
    await client.upsertInvoice({
      invoiceId: `demo-inv-${i}`,
      invoiceNumber: `INV-${1000 + i}`,
      invoiceDate: { date: '2026-11-01' },
      invoiceDueDate: { date: '2026-12-01' },
      invoiceSubtotal: 75000,
      invoiceTax: {
        total: 13500,
        gstTax: {
          totalGst: 13500,
          totalGstRate: 18,
          cgst: 6750,
          cgstRate: 9,
          sgst: 6750,
          sgstRate: 9,
          igst: 0,
          igstRate: 0,
        },
      },
      invoiceTotal: 88500,
      invoicePaidAmount: i === 1 ? 40000 : 0,
      invoiceCurrency: 'INR',
      customerDetails: BUYER,
      invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
      erpId: `zoho-${i}`,
    });
  }
  return 'INV-1001..INV-1003 (₹88,500.00 each, GST 18% intra-state)';
}

async function upsertCreditNote(client: BillingClient): Promise<string> {
  await client.upsertCreditNote({
    creditNoteId: 'demo-cn-1',
    creditNoteNumber: 'CN-1',
    creditNoteSubtotal: 10000,
    creditNoteTax: { total: 1800 },
    creditNoteTotal: 11800,
    appliedToInvoices: [{ invoiceId: 'demo-inv-2', amount: 11800 }],
    creditNoteOriginSource: 'EXTERNAL_SYSTEM_A',
  });
  return 'CN-1 ₹11,800.00';
}

async function createAndSearchCustomers(client: BillingClient): Promise<string> {
  await client.createCustomer({
    ...BUYER,
    contactsData: [
      {
        id: 'p1',
        name: 'Accounts Payable',
        primaryPhone: '+91-80-41234567',
        primaryEmail: 'ap@bharat.example',
        role: 'AP',
      },
    ],
  });
  const found = await client.searchCustomers({ searchType: 'GSTIN', searchText: '29AABCB1234F1Z5' });
  return `found ${found.totalDocs} by GSTIN: ${found.docs.map((c) => `${c.name} (${c.buyerId})`).join(', ')}`;
}

async function listInvoicesUpdatedToday(client: BillingClient): Promise<string> {
  const today = utcDate(Date.now());
  const page = await client.listInvoices({ ...updatedBetween(today, today), originSource: ['EXTERNAL_SYSTEM_A'] });
  return page.docs
    .map((d) => `${d.invoiceNumber} ${d.paymentStatus} outstanding ${d.invoiceOutstandingAmount}`)
    .join('; ');
}

async function attachAndList(client: BillingClient): Promise<string> {
  await client.addInvoiceAttachment({
    invoiceNumber: 'INV-1001',
    attachmentUrl: 'https://files.example/INV-1001.pdf',
    attachmentPurpose: 'INVOICE_FOR_BUYER',
  });
  const list = await client.listInvoiceAttachments({ invoiceNumber: 'INV-1001' });
  return list.attachments.map((a) => `${a.filename} (${a.purpose})`).join(', ');
}

async function fetchContractsAndRateCards(client: BillingClient): Promise<string> {
  const contracts = await client.filterContracts({ pageSize: 3 });
  const assoc = await client.listContractFeeComponentRatecards({});
  return `${contracts.totalDocs} contracts (first: ${contracts.docs[0]?.contractNumber ?? '-'}), ${assoc.length} contract rate-card associations`;
}
