import { invoiceIdFor } from '../src/mapping/index.js';
import type { InvoiceInputDraft } from '../src/billing/schemas/index.js';

/** A deterministic invoice of connection "bench" (benchmarks seed billing and the ledger with it). */
export function seedInvoice(i: number): InvoiceInputDraft {
  const amt = 1000 + (i % 997);
  return {
    invoiceId: invoiceIdFor('bench', String(i)),
    invoiceNumber: `INV-${i}`,
    invoiceDate: { date: '2026-01-15' },
    invoiceSubtotal: amt,
    invoiceTax: { total: 180 },
    invoiceTotal: amt + 180,
    invoicePaidAmount: i % 3 === 0 ? 180 : 0,
    invoiceCurrency: 'INR',
    customerDetails: { buyerId: `cust.bench.${i % 500}` },
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    erpId: String(i),
  };
}
