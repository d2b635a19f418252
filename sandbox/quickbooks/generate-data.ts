import { computeAmounts } from './compute-amounts.js';
import { buildDocument, exchangeRateFor, generateLines, taxCodeFor } from './build-document.js';
import { classificationFor } from './classification.js';
import { generateCustomers } from './generate-customers.js';
import type { StoredDoc } from './model.js';
import type { QboStore } from './qbo-store.js';
import { localDate } from './qbo-time.js';
import { SeededRandom } from '../kit/seeded-random.js';

const DAY = 86_400_000;

export interface GenerateOptions {
  seed: number | string;
  /** Invoices to create (before deletes). */
  records: number;
  customers: number;
  creditMemos: number;
  /** History spans this many days before `now`. */
  spanDays: number;
  now: number;
}

/**
 * Fills a store with a deterministic history (same seed + same `now` = same company): customers, then
 * invoices created in time order across `spanDays`, each possibly discounted, then paid in full (≈30 %)
 * or in part (≈25 %), voided (≈5 %) or deleted (≈5 %, within the last 20 days so CDC still shows it),
 * then credit memos against open invoices, applied up to their balance (some left unapplied). Amounts are
 * integer paise; every timestamp is at or before `now`, to the second. Invoices carry a class, a
 * department, custom fields and a customer message (classification.ts); a credit memo its invoice's class
 * and department.
 */
export function generateData(store: QboStore, o: GenerateOptions): void {
  const rng = new SeededRandom(o.seed);
  const start = Math.floor((o.now - o.spanDays * DAY) / 1000) * 1000;
  store.createdAt = start - DAY;
  for (const c of generateCustomers(rng.fork('customers'), Math.max(1, o.customers), start - DAY / 2)) {
    c.lastUpdated = Math.min(c.lastUpdated, o.now);
    store.addCustomer(c);
  }
  const customers = [...store.customers.values()];
  const docRng = rng.fork('invoices');
  const tagRng = rng.fork('classification');
  const step = Math.max(1000, Math.floor((o.now - start) / Math.max(1, o.records)));
  const invoices: StoredDoc[] = [];
  for (let k = 0; k < o.records; k++) {
    const at = Math.floor((start + k * step + docRng.int(0, Math.max(0, step - 1000))) / 1000) * 1000;
    const customer = docRng.pick(customers);
    const id = store.nextId('Invoice');
    const txnDate = localDate(at, store.config.offsetMinutes);
    const foreign = customer.currency !== store.config.homeCurrency;
    const rate = foreign ? exchangeRateFor(customer.currency, docRng) : undefined;
    const lines = generateLines(docRng, foreign ? 80 : 1);
    const subtotal = lines.reduce((a, l) => a + l.qty * l.unitPricePaise, 0);
    // A fixed discount is a round amount of at most a quarter of the subtotal.
    const fixed = Math.min(docRng.int(5, 50) * 10_000, Math.floor(subtotal / 400) * 100);
    const discount = docRng.chance(0.2)
      ? docRng.chance(0.6) || fixed === 0
        ? { percentBp: docRng.pick([500, 1000, 1250]) }
        : { amountPaise: fixed }
      : undefined;
    const doc = buildDocument({
      kind: 'Invoice',
      id,
      docNumber: `INV-${id.padStart(5, '0')}`,
      customer,
      txnDate,
      dueDate: localDate(Date.parse(`${txnDate}T00:00:00Z`) + docRng.pick([15, 30, 45]) * DAY, 0),
      lines,
      taxCodeId: taxCodeFor(customer, docRng.pick([500, 1200, 1800, 1800, 1800, 2800])),
      ...(discount ? { discount } : {}),
      applyTaxAfterDiscount: docRng.chance(0.8),
      ...(rate ? { exchangeRate: rate } : {}),
      ...(docRng.chance(0.1) ? { notes: ['Thank you for your business.'] } : {}),
      ...classificationFor(tagRng, txnDate),
      at,
    });
    store.addDoc(doc);
    invoices.push(doc);
    const later = (from: number) => Math.min(o.now, from + docRng.int(1, 10) * DAY + docRng.int(0, 3600) * 1000);
    const roll = docRng.next();
    if (roll < 0.3) {
      if (computeAmounts(doc).total > 0) store.recordPayment(id, undefined, later(doc.lastUpdated));
    } else if (roll < 0.55) {
      const total = computeAmounts(doc).total;
      const part = Math.max(100, Math.floor((total * docRng.int(10, 90)) / 100 / 100) * 100);
      if (part < total) store.recordPayment(id, part / 100, later(doc.lastUpdated));
    } else if (roll < 0.6) {
      store.voidInvoice(id, later(doc.lastUpdated));
    }
  }
  const cmRng = rng.fork('credit-memos');
  for (let j = 0; j < o.creditMemos && invoices.length > 0; j++) {
    const open = invoices.filter((d) => !d.voided && store.docs.Invoice.has(d.id));
    const inv = cmRng.pick(open.length ? open : invoices);
    if (inv.voided) continue;
    const at = Math.min(o.now, inv.lastUpdated + cmRng.int(1, 5) * DAY);
    store.createCreditMemo({ invoiceId: inv.id, apply: cmRng.chance(0.8), at });
  }
  const delRng = rng.fork('deletes');
  for (const inv of invoices) {
    if (!delRng.chance(0.05) || inv.voided || inv.linked.length > 0) continue;
    const from = Math.max(inv.lastUpdated, o.now - 20 * DAY);
    store.deleteDoc('Invoice', inv.id, Math.min(o.now, from + delRng.int(0, 5 * 86_400) * 1000));
  }
}
