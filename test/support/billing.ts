import { BillingClient } from '../../src/billing/client.js';
import type { InvoiceInputDraft } from '../../src/billing/schemas/index.js';
import { startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';

export const KEYS = {
  acme: 'test-key-acme',
  globex: 'test-key-globex',
  acmeAttach: 'test-attach-acme',
};

/** The real emulator on a free loopback port, two companies, and a real client for each. */
export async function startBilling() {
  const emulator = await startBillingEmulator({
    port: 0,
    keys: [
      { key: KEYS.acme, companyId: 'acme' },
      { key: KEYS.globex, companyId: 'globex' },
    ],
    attachmentKeys: [{ key: KEYS.acmeAttach, companyId: 'acme' }],
    seed: 7,
  });
  const fast = { minTimeoutMs: 1, maxTimeoutMs: 5 };
  const acme = new BillingClient({
    baseUrl: emulator.url,
    apiKey: KEYS.acme,
    attachmentKey: KEYS.acmeAttach,
    retry: fast,
  });
  const globex = new BillingClient({ baseUrl: emulator.url, apiKey: KEYS.globex, retry: fast });
  const admin = async (path: string, body: unknown = {}, company = 'acme') => {
    const res = await fetch(`${emulator.url}/__admin${path}${path.includes('?') ? '&' : '?'}company=${company}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin ${path} → ${res.status} ${await res.text()}`);
    return res.json().catch(() => undefined);
  };
  const setClock = (iso: string | null) => admin('/clock', { now: iso });
  return { emulator, acme, globex, admin, setClock };
}

/** A small valid intra-state GST invoice: 1000 + 9% CGST + 9% SGST = 1180. */
export function invoice(n: number, over: Partial<InvoiceInputDraft> = {}): InvoiceInputDraft {
  return {
    invoiceId: `conn1-inv-${n}`,
    invoiceNumber: `INV-${String(n).padStart(5, '0')}`,
    invoiceDate: { date: '2026-01-15' },
    invoiceDueDate: { date: '2026-02-14' },
    invoiceSubtotal: 1000,
    invoiceTax: {
      total: 180,
      gstTax: { totalGst: 180, totalGstRate: 18, cgst: 90, cgstRate: 9, sgst: 90, sgstRate: 9, igst: 0, igstRate: 0 },
      cgst: 90,
      sgst: 90,
    },
    invoiceTotal: 1180,
    invoiceCurrency: 'INR',
    customerDetails: {
      buyerId: 'conn1-cust-1',
      name: 'Bharat Tooling Pvt Ltd',
      taxIdentifiers: [{ type: 'GSTIN', value: '29AABCB1234F1Z5' }],
    },
    customerName: 'Bharat Tooling Pvt Ltd',
    lineItems: [
      {
        lineItemDetails: { name: 'Annual SaaS subscription', taxRate: 18, pricePerItem: 1000, hsnOrSacCode: '998314' },
        subTotal: 1000,
        total: 1180,
        quantity: 1,
      },
    ],
    erpId: `erp-${n}`,
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    metaData: { sourceStatus: 'sent', sourceVersion: '2026-01-15T10:00:00.000Z' },
    ...over,
  };
}
