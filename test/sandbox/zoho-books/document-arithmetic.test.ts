import { describe, expect, it } from 'vitest';
import {
  EmulatorClock,
  generateData,
  renderContactDetail,
  renderCreditNoteDetail,
  renderInvoiceDetail,
  ZohoDataStore,
} from '../../../sandbox/zoho-books/index.js';
import { checkDocument, paise, type TaxInfo } from './wire-arithmetic.js';

type Json = Record<string, unknown>;

/** Wire JSON exactly as a client would parse it. */
const wire = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

function setup(seed: number, records: number) {
  const dataset = generateData({ seed, records, creditNotes: Math.ceil(records / 6) });
  const store = new ZohoDataStore(dataset, new EmulatorClock({ now: '2026-01-15T10:00:00Z', frozen: true }));
  const taxes = new Map<string, TaxInfo>(dataset.taxes.all.map((t) => [t.tax_id, { ...t }]));
  const invoices = store.invoices().map((i) => wire(renderInvoiceDetail(i, store.render)));
  const creditNotes = store.creditNotes().map((c) => wire(renderCreditNoteDetail(c, store.render)));
  return { dataset, store, taxes, invoices, creditNotes };
}

describe('Zoho sandbox arithmetic', () => {
  for (const seed of [1, 2, 3]) {
    it(`given seed ${seed}, when every invoice detail is recomputed in integer paise, then lines, discounts, taxes, totals, bcy amounts and balances all agree`, () => {
      const { invoices, creditNotes, taxes } = setup(seed, 500);
      const credited = new Map<string, bigint>();
      for (const cn of creditNotes)
        for (const app of cn.invoices as Json[])
          credited.set(
            String(app.invoice_id),
            (credited.get(String(app.invoice_id)) ?? 0n) + paise(app.amount, 'app', []),
          );
      const problems: string[] = [];
      for (const inv of invoices) {
        const label = String(inv.invoice_number);
        const { problems: p, total } = checkDocument(inv, taxes, label);
        problems.push(...p);
        const paid = paise(inv.payment_made, `${label}.payment_made`, problems);
        const credits = paise(inv.credits_applied, `${label}.credits_applied`, problems);
        const writeOff = paise(inv.write_off_amount, `${label}.write_off_amount`, problems);
        const withheld = paise(inv.tax_amount_withheld ?? 0, `${label}.tax_amount_withheld`, problems);
        const balance = paise(inv.balance, `${label}.balance`, problems);
        if (balance !== total - paid - credits - writeOff - withheld)
          problems.push(
            `${label}: balance ${balance} ≠ ${total} − ${paid} − ${credits} − ${writeOff} − TDS withheld ${withheld}`,
          );
        if (balance < 0n) problems.push(`${label}: negative balance`);
        if (credits !== (credited.get(String(inv.invoice_id)) ?? 0n))
          problems.push(`${label}: credits_applied ≠ Σ credit-note applications`);
        if (inv.status === 'paid' && balance !== 0n) problems.push(`${label}: paid with a balance`);
        if (inv.status === 'partially_paid' && !(balance > 0n && balance < total))
          problems.push(`${label}: partially_paid but balance ${balance} of ${total}`);
        if ((inv.status === 'draft' || inv.status === 'void') && paid + credits + writeOff + withheld !== 0n)
          problems.push(`${label}: ${String(inv.status)} with money applied`);
      }
      expect(problems).toEqual([]);
      expect(invoices.length).toBe(500);
    });
  }

  it('given generated credit notes, when each is recomputed, then totals add up and balance = total − Σ applications, closed ⇔ fully applied', () => {
    const { creditNotes, taxes } = setup(1, 500);
    const problems: string[] = [];
    for (const cn of creditNotes) {
      const label = String(cn.creditnote_number);
      const { problems: p, total } = checkDocument(cn, taxes, label);
      problems.push(...p);
      const applied = (cn.invoices as Json[]).reduce(
        (s, a) => s + paise(a.amount, `${label}.invoices.amount`, problems),
        0n,
      );
      const balance = paise(cn.balance, `${label}.balance`, problems);
      if (balance !== total - applied) problems.push(`${label}: balance ${balance} ≠ ${total} − ${applied}`);
      if (cn.status === 'closed' && balance !== 0n) problems.push(`${label}: closed with balance`);
      if (cn.status === 'open' && balance === 0n) problems.push(`${label}: open without balance`);
      if ((cn.status === 'void' || cn.status === 'draft') && applied !== 0n)
        problems.push(`${label}: ${String(cn.status)} but applied`);
    }
    expect(problems).toEqual([]);
    expect(creditNotes.length).toBeGreaterThan(50);
  });

  it('given contacts, when their receivables are read, then outstanding = Σ balance of their posted invoices and unused credits = Σ open credit-note balances', () => {
    const { store, invoices, creditNotes } = setup(4, 300);
    const receivables = store.receivables();
    for (const contact of store.contacts()) {
      const w = wire(
        renderContactDetail(
          contact,
          store.render,
          receivables.get(contact.contact_id) ?? {
            outstandingMinor: 0,
            outstandingBcyMinor: 0,
            unusedCreditsMinor: 0,
            unusedCreditsBcyMinor: 0,
          },
        ),
      );
      const outstanding = invoices
        .filter((i) => i.customer_id === contact.contact_id && i.status !== 'draft' && i.status !== 'void')
        .reduce((s, i) => s + paise(i.balance, 'balance', []), 0n);
      const unused = creditNotes
        .filter((c) => c.customer_id === contact.contact_id && c.status === 'open')
        .reduce((s, c) => s + paise(c.balance, 'balance', []), 0n);
      expect(paise(w.outstanding_receivable_amount, 'outstanding', [])).toBe(outstanding);
      expect(paise(w.unused_credits_receivable_amount, 'unused', [])).toBe(unused);
    }
  });

  it('given intra-state, inter-state and overseas invoices, when their tax components are classified through the tax catalog, then KA customers pay CGST+SGST, other states IGST, exports IGST or nothing', () => {
    const { invoices, taxes } = setup(1, 500);
    const kinds = new Set<string>();
    for (const inv of invoices) {
      const types = new Set<string>();
      for (const line of inv.line_items as Json[]) {
        const tax = taxes.get(String(line.tax_id));
        for (const c of tax?.components ?? []) types.add(taxes.get(c)?.tax_specific_type ?? '?');
      }
      types.delete('cess');
      const key = [...types].sort().join('+');
      if (inv.place_of_supply === 'KA') expect(['cgst+sgst', '']).toContain(key);
      else if (inv.gst_treatment === 'overseas') expect(['igst', '']).toContain(key);
      else expect(key).toBe('igst');
      kinds.add(
        `${inv.place_of_supply === 'KA' ? 'intra' : inv.gst_treatment === 'overseas' ? 'export' : 'inter'}:${key}`,
      );
    }
    expect([...kinds].sort()).toEqual(['export:', 'export:igst', 'inter:igst', 'intra:cgst+sgst']);
  });
});
