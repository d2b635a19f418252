import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../sandbox/quickbooks/index.js';
import { INDIA_TENANT_ID, startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../sandbox/xero/index.js';
import type { OriginSource } from '../../src/billing/schemas/index.js';

/** One ERP sandbox as the demo uses it: start it, point a connection at it, change it, count it. */
export interface DemoErp {
  system: 'zoho-books' | 'quickbooks' | 'xero';
  connectionId: string;
  originSource: OriginSource;
  /** Backfill range covering the generated documents. */
  from: string;
  to: string;
  url: string;
  /** The `connections[]` entry (raw, before config parsing). */
  connection(): Record<string, unknown>;
  /** A batch of source changes: edits, new invoices, voids, a delete, payments, same-second edits. */
  mutate(): Promise<string[]>;
  /** Invoices the source holds now (deleted ones excluded). */
  sourceInvoices(): number;
  close(): Promise<void>;
}

export async function startZohoDemo(records: number, seed: number): Promise<DemoErp> {
  const emu = await startZohoEmulator({ port: 0, seed, records, ratePerMinute: 0, dailyLimit: 0 });
  const d = ZOHO_SANDBOX_DEFAULTS;
  return {
    system: 'zoho-books',
    connectionId: 'zoho-in',
    originSource: 'EXTERNAL_SYSTEM_A',
    from: '2025-01-01',
    to: '2025-12-31',
    url: emu.url,
    connection: () => ({
      id: 'zoho-in',
      system: 'zoho-books',
      originSource: 'EXTERNAL_SYSTEM_A',
      schedule: { everySeconds: 3600 },
      lookbackSeconds: 120,
      settleDelaySeconds: 0,
      // The sandbox has no per-minute limit; real Zoho allows 100/min per organisation.
      rateBudget: { perMinute: 100_000, concurrency: 8 },
      settings: {
        organizationId: emu.organizationId,
        clientId: d.clientId,
        clientSecret: d.clientSecret,
        refreshToken: d.refreshToken,
        baseUrl: emu.apiBase,
        accountsUrl: emu.url,
        dailyCallLimit: 0,
      },
    }),
    mutate: async () => {
      const store = emu.store;
      const all = store.invoices();
      // Unpaid, uncredited, posted invoices: Zoho refuses to void or delete an invoice with payments or credits.
      const credited = new Set(store.creditNotes().flatMap((c) => c.applications?.map((a) => a.invoice_id) ?? []));
      const open = all.filter(
        (i) => i.status !== 'void' && i.status !== 'draft' && i.payments.length === 0 && i.writeOffMinor === 0 && !credited.has(i.invoice_id),
      );
      const pick = (n: number, from = open) => from.splice(0, n).map((i) => i.invoice_id);
      const edited = pick(5);
      for (const id of edited) store.editInvoice(id);
      const paid = pick(3);
      for (const id of paid) store.recordPayment(id);
      const voided = pick(2);
      for (const id of voided) store.voidInvoice(id);
      const deleted = pick(1);
      for (const id of deleted) store.deleteInvoice(id);
      const sameSecond = pick(4);
      store.editInvoicesInSameSecond(sameSecond);
      for (let i = 0; i < 3; i++) store.createInvoice({});
      return [
        `edited ${edited.length}`,
        `paid ${paid.length}`,
        `voided ${voided.length}`,
        `deleted ${deleted.length}`,
        `edited ${sameSecond.length} in the same second`,
        'created 3',
      ];
    },
    sourceInvoices: () => emu.store.invoices().length,
    close: () => emu.close(),
  };
}

/** Xero, the organisation whose base currency is the billing company's (INR). */
export async function startXeroDemo(records: number, seed: number): Promise<DemoErp> {
  const emu = await startXeroEmulator({
    port: 0,
    seed,
    records,
    ratePerMinute: 1_000_000,
    dailyLimit: 10_000_000,
    maxConcurrent: 50,
    appRatePerMinute: 10_000_000,
  });
  const d = XERO_SANDBOX_DEFAULTS;
  const t = INDIA_TENANT_ID;
  const sales = () => emu.store.invoices(t).filter((i) => i.Type === 'ACCREC');
  return {
    system: 'xero',
    connectionId: 'xero-in',
    originSource: 'EXTERNAL_SYSTEM_C',
    from: '2020-01-01',
    to: new Date().toISOString().slice(0, 10),
    url: emu.url,
    connection: () => ({
      id: 'xero-in',
      system: 'xero',
      originSource: 'EXTERNAL_SYSTEM_C',
      schedule: { everySeconds: 3600 },
      lookbackSeconds: 120,
      settleDelaySeconds: 0,
      // The sandbox has no limits to respect; real Xero allows 60/min, 5,000/day, 5 concurrent.
      rateBudget: { perMinute: 100_000, perDay: 0, concurrency: 5 },
      settings: { tenantId: t, clientId: d.clientId, clientSecret: d.clientSecret, refreshToken: d.refreshToken, baseUrl: emu.apiBase, tokenUrl: emu.tokenUrl },
    }),
    mutate: async () => {
      const open = sales().filter((i) => i.Status === 'AUTHORISED' && i.AmountPaid === 0 && i.AmountCredited === 0);
      const ids = (n: number) => open.splice(0, n).map((i) => i.InvoiceID);
      const edited = ids(5);
      for (const id of edited) emu.store.editInvoice(t, id, { reference: 'edited in the demo', lines: true });
      const paid = ids(3);
      for (const id of paid) emu.store.payInvoice(t, id);
      const voided = ids(2);
      for (const id of voided) emu.store.voidInvoice(t, id);
      for (let i = 0; i < 3; i++) emu.store.createInvoice(t, { status: 'AUTHORISED' });
      return [`edited ${edited.length}`, `paid ${paid.length}`, `voided ${voided.length}`, 'created 3'];
    },
    // DELETED invoices stay in Xero as records with Status DELETED; they are not receivables.
    sourceInvoices: () => sales().filter((i) => i.Status !== 'DELETED').length,
    close: () => emu.close(),
  };
}

/** QuickBooks Online, a company whose home currency is the billing company's (INR). */
export async function startQuickBooksDemo(records: number, seed: number): Promise<DemoErp> {
  const emu = await startQuickBooksEmulator({
    port: 0,
    seed,
    records,
    customers: Math.max(12, Math.floor(records / 10)),
    creditMemos: Math.floor(records / 10),
    ratePerMinute: 1_000_000,
    maxInFlight: 50,
  });
  const d = QBO_SANDBOX_DEFAULTS;
  const invoices = () => [...emu.store.docs.Invoice.values()];
  return {
    system: 'quickbooks',
    connectionId: 'qbo-in',
    originSource: 'EXTERNAL_SYSTEM_B',
    from: '2020-01-01',
    to: new Date().toISOString().slice(0, 10),
    url: emu.url,
    connection: () => ({
      id: 'qbo-in',
      system: 'quickbooks',
      originSource: 'EXTERNAL_SYSTEM_B',
      schedule: { everySeconds: 3600 },
      lookbackSeconds: 120,
      settleDelaySeconds: 0,
      // The sandbox has no limits to respect; real QuickBooks allows 500/min and 10 in flight per realm.
      rateBudget: { perMinute: 100_000, concurrency: 10 },
      settings: {
        realmId: emu.realmId,
        clientId: d.clientId,
        clientSecret: d.clientSecret,
        refreshToken: d.refreshToken,
        baseUrl: emu.url,
        tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      },
    }),
    mutate: async () => {
      const open = invoices().filter((i) => !i.voided && i.paidPaise === 0);
      const ids = (n: number) => open.splice(0, n).map((i) => i.id);
      const edited = ids(5);
      for (const id of edited) emu.store.editInvoice(id, { privateNote: 'edited in the demo' });
      const paid = ids(3);
      for (const id of paid) emu.store.recordPayment(id);
      const voided = ids(2);
      for (const id of voided) emu.store.voidInvoice(id);
      const deleted = ids(1);
      for (const id of deleted) emu.store.deleteDoc('Invoice', id);
      for (let i = 0; i < 3; i++) emu.store.createInvoice({});
      return [`edited ${edited.length}`, `paid ${paid.length}`, `voided ${voided.length}`, `deleted ${deleted.length} (found through CDC)`, 'created 3'];
    },
    sourceInvoices: () => invoices().length,
    close: () => emu.close(),
  };
}
