import { buildInvoice } from './build-invoice.js';
import { businessInstant, instantBetween, type GeneratorContext } from './generator-context.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { ContactRecord, InvoiceRecord } from './store-records.js';
import { addDays, formatZohoDate, localMidnight } from './zoho-timestamp.js';

const DAY_MS = 86_400_000;

export function invoiceNumber(n: number): string {
  return `INV-${String(n).padStart(6, '0')}`;
}

/** Rounds down to whole currency units, keeping at least one unit. */
const wholeUnits = (minor: number): number => Math.max(100, Math.floor(minor / 100) * 100);

/** A payment instant `days` after the invoice date, in business hours; undefined if after the as-of instant. */
function paymentDate(
  ctx: GeneratorContext,
  random: SeededRandom,
  invoice: InvoiceRecord,
  days: number,
): { date: string; ms: number } | undefined {
  const date = addDays(invoice.date, days);
  const ms = Math.max(
    invoice.createdMs + 1000,
    localMidnight(date, ctx.organization.offsetMinutes) + random.int(9 * 3600, 19 * 3600) * 1000,
  );
  if (ms > ctx.asOfMs) return undefined;
  return { date: formatZohoDate(ms, ctx.organization.offsetMinutes), ms };
}

/** Adds payments (full, split, partial, short-paid with a write-off) or a void to a posted invoice. */
function addLifecycle(ctx: GeneratorContext, random: SeededRandom, invoice: InvoiceRecord): void {
  if (invoice.status === 'draft') return;
  if (random.chance(0.04)) {
    invoice.status = 'void';
    invoice.modifiedMs = instantBetween(
      random,
      invoice.createdMs + 3600_000,
      Math.min(ctx.asOfMs, invoice.createdMs + 20 * DAY_MS),
    );
    return;
  }
  const total = invoice.amounts.totalMinor;
  const plan = random.weighted([
    ['none', 30],
    ['full', 43],
    ['partial', 20],
    ['short', 4],
    ['split', 3],
  ] as const);
  const first = paymentDate(ctx, random, invoice, random.int(0, invoice.payment_terms + 25));
  if (plan === 'none' || !first) return;
  const pay = (at: { date: string; ms: number }, amountMinor: number): void => {
    invoice.payments.push({ payment_id: ctx.transactionIds.take(), date: at.date, amountMinor });
    invoice.modifiedMs = Math.max(invoice.modifiedMs, at.ms);
  };
  if (plan === 'full') return pay(first, total);
  if (plan === 'short') {
    // Customer short-paid by a few paise; the rest was written off at the same time.
    invoice.writeOffMinor = Math.min(random.int(1, 99), total - 1);
    return pay(first, total - invoice.writeOffMinor);
  }
  const part = Math.min(wholeUnits(Math.round((total * random.int(20, 80)) / 100)), total - 1);
  if (part <= 0) return pay(first, total);
  pay(first, part);
  if (plan === 'split') {
    const second = paymentDate(ctx, random, invoice, random.int(30, 75));
    if (second && second.ms >= first.ms) pay(second, total - part);
  }
}

/**
 * Invoices spread over business hours of [from, to], numbered in creation order. About 6% share the
 * creation second of the one before (bulk creation), so cursors must not assume unique timestamps.
 */
export function generateInvoices(
  ctx: GeneratorContext,
  random: SeededRandom,
  customers: ContactRecord[],
  count: number,
): InvoiceRecord[] {
  const instants = Array.from({ length: count }, () => businessInstant(ctx, random)).sort((a, b) => a - b);
  for (let i = 1; i < instants.length; i++) if (random.chance(0.06)) instants[i] = instants[i - 1] ?? 0;
  const weightedCustomers = customers.map((c) => [c, c.status === 'active' ? 10 : 2] as const);
  const invoices: InvoiceRecord[] = [];
  instants.forEach((createdMs, i) => {
    const eligible = weightedCustomers.filter(([c]) => c.createdMs <= createdMs);
    const customer = random.weighted(eligible.length ? eligible : weightedCustomers);
    const invoice = buildInvoice(ctx, random, customer, {
      invoiceNumber: invoiceNumber(i + 1),
      createdMs,
      draft: random.chance(0.07),
    });
    invoice.is_viewed_by_client = invoice.status !== 'draft' && random.chance(0.3);
    addLifecycle(ctx, random, invoice);
    invoices.push(invoice);
  });
  return invoices;
}

/**
 * Guarantees at least one second shared by three invoices' `last_modified_time` (a bulk update), so an
 * incremental reader that uses a strict `>` cursor demonstrably loses records.
 */
export function ensureSharedModifiedSecond(invoices: InvoiceRecord[]): void {
  const counts = new Map<number, number>();
  for (const inv of invoices) counts.set(inv.modifiedMs, (counts.get(inv.modifiedMs) ?? 0) + 1);
  if ([...counts.values()].some((n) => n >= 3) || invoices.length < 3) return;
  const start = Math.floor(invoices.length / 2) - 1;
  const group = invoices.slice(start, start + 3);
  const at = Math.max(...group.map((inv) => inv.modifiedMs));
  for (const inv of group) inv.modifiedMs = at;
}
