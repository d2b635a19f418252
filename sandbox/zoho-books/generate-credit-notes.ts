import { buildCreditNote, creditLine } from './build-credit-note.js';
import { instantBetween, type GeneratorContext } from './generator-context.js';
import { invoiceBalanceMinor } from './invoice-status.js';
import { CREDIT_REASONS } from '../kit/sample-names.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { CreditNoteRecord, InvoiceRecord, LineRecord } from './store-records.js';

const DAY_MS = 86_400_000;

export function creditNoteNumber(n: number): string {
  return `CN-${String(n).padStart(5, '0')}`;
}

/** Σ applied amounts per invoice id, across all credit notes. */
export function creditsByInvoice(creditNotes: readonly CreditNoteRecord[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const cn of creditNotes)
    for (const app of cn.applications) sums.set(app.invoice_id, (sums.get(app.invoice_id) ?? 0) + app.amountMinor);
  return sums;
}

/** Credit lines copied from the invoice (same item, rate and tax), for part of the quantity. */
function creditLines(ctx: GeneratorContext, random: SeededRandom, invoice: InvoiceRecord): LineRecord[] {
  const source = [...invoice.lines];
  const count = Math.min(source.length, random.int(1, 2));
  const lines: LineRecord[] = [];
  for (let n = 0; n < count; n++) {
    const from = source.splice(random.int(0, source.length - 1), 1)[0];
    if (!from) break;
    const units = Math.floor(from.quantityHundredths / 100);
    lines.push(
      creditLine(ctx, invoice, from, units >= 2 ? random.int(1, units) * 100 : from.quantityHundredths, n + 1),
    );
  }
  return lines;
}

/**
 * Credit notes against posted invoices: applied in full (closed), in part (open with a balance), not at all
 * (open), void, or draft. Applications never exceed what the invoice still owes, so every invoice's
 * `balance = total − payment_made − credits_applied − write_off_amount` stays ≥ 0.
 */
export function generateCreditNotes(
  ctx: GeneratorContext,
  random: SeededRandom,
  invoices: InvoiceRecord[],
  count: number,
): CreditNoteRecord[] {
  const posted = invoices.filter((i) => i.status !== 'draft' && i.status !== 'void');
  if (posted.length === 0) return [];
  const credited = new Map<string, number>();
  const notes: CreditNoteRecord[] = [];
  let previousMs = 0;
  for (let k = 0; k < count; k++) {
    // Mostly invoices that still owe something (a few tries), else any posted invoice.
    let invoice = random.pick(posted);
    if (random.chance(0.75)) {
      for (
        let tries = 0;
        tries < 25 && invoiceBalanceMinor(invoice, credited.get(invoice.invoice_id) ?? 0) <= 0;
        tries++
      )
        invoice = random.pick(posted);
    }
    let createdMs = instantBetween(
      random,
      invoice.createdMs + 3600_000,
      Math.min(ctx.asOfMs, invoice.createdMs + 40 * DAY_MS),
    );
    if (previousMs >= invoice.createdMs && random.chance(0.1)) createdMs = previousMs;
    previousMs = createdMs;
    const note = buildCreditNote(
      ctx,
      invoice,
      creditLines(ctx, random, invoice),
      createdMs,
      '',
      random.pick(CREDIT_REASONS),
    );
    const plan = random.weighted([
      ['full', 45],
      ['partial', 20],
      ['unapplied', 20],
      ['void', 10],
      ['draft', 5],
    ] as const);
    if (plan === 'void' || plan === 'draft') {
      note.status = plan;
      if (plan === 'void')
        note.modifiedMs = instantBetween(random, createdMs, Math.min(ctx.asOfMs, createdMs + 5 * DAY_MS));
    } else if (plan !== 'unapplied') {
      const available = invoiceBalanceMinor(invoice, credited.get(invoice.invoice_id) ?? 0);
      const wanted = plan === 'full' ? note.amounts.totalMinor : Math.floor(note.amounts.totalMinor / 2);
      const amountMinor = Math.min(wanted, available);
      if (amountMinor > 0) {
        note.applications.push({
          invoice_id: invoice.invoice_id,
          invoice_number: invoice.invoice_number,
          date: note.date,
          amountMinor,
        });
        credited.set(invoice.invoice_id, (credited.get(invoice.invoice_id) ?? 0) + amountMinor);
        invoice.modifiedMs = Math.max(invoice.modifiedMs, createdMs);
      }
    }
    notes.push(note);
  }
  notes.sort((a, b) => a.createdMs - b.createdMs);
  notes.forEach((n, i) => {
    n.creditnote_number = creditNoteNumber(i + 1);
    if (n.status === 'open' && creditNoteBalanceMinor(n) === 0) n.status = 'closed';
  });
  return notes;
}

/** Unapplied credit: total − Σ applications. */
export function creditNoteBalanceMinor(note: CreditNoteRecord): number {
  return note.amounts.totalMinor - note.applications.reduce((s, a) => s + a.amountMinor, 0);
}
