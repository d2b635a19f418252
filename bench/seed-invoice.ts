import { invoiceIdFor } from '../src/mapping/index.js';
import type { InvoiceInputDraft } from '../src/billing/schemas/index.js';

const DAY_MS = 86_400_000;

/**
 * A deterministic invoice of connection "bench" (benchmarks seed billing and the ledger with it).
 * `spreadDays`: invoice dates spread over that many days up to 2026-01-15 (default: all on that day).
 */
export function seedInvoice(i: number, spreadDays = 1): InvoiceInputDraft {
  const amt = 1000 + (i % 997);
  return {
    invoiceId: invoiceIdFor('bench', String(i)),
    invoiceNumber: `INV-${i}`,
    invoiceDate: {
      date: new Date(Date.parse('2026-01-15T00:00:00Z') - (i % spreadDays) * DAY_MS).toISOString().slice(0, 10),
    },
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
