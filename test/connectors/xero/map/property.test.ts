import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MapContext, SourceRecord } from '../../../../src/connector/types.js';
import { toCreditNote } from '../../../../connectors/xero/map/credit-note.js';
import { toInvoice } from '../../../../connectors/xero/map/invoice.js';
import { DEFAULT_TENANTS, generateData, type TenantDataset } from '../../../../sandbox/xero/index.js';
import {
  XeroCreditNote,
  XeroInvoice,
  XeroOrganisationResponse,
  XeroTaxRatesResponse,
} from '../../../../connectors/xero/schemas.js';
import { lookupsFrom } from '../../../../connectors/xero/streams/lookups.js';
import { toSourceRecord } from '../fixtures.js';
import { CreditNoteUpsertBody } from '../../../../src/billing/schemas/credit-note.js';
import { InvoiceUpsertBody } from '../../../../src/billing/schemas/invoice.js';
import { Money, QUARANTINE_REASON_CODES, sumMoney } from '../../../../src/mapping/index.js';

/**
 * Generated data (the emulator's own generator, through JSON as on the wire) plus random perturbations:
 * the mappers return a schema-valid body or a typed quarantine reason, never throw; untouched records of the
 * INR organisation always map, and their money adds up exactly.
 */
function dataset(seed: number): TenantDataset[] {
  return generateData({
    seed,
    records: 12,
    contacts: 8,
    creditNotes: 6,
    tenants: DEFAULT_TENANTS,
    anchor: '2025-03-01T00:00:00.000Z',
    days: 60,
    convention: 'foreign-per-base',
  });
}

function lookupsOf(d: TenantDataset): Record<string, unknown> {
  return lookupsFrom(
    XeroOrganisationResponse.parse({ Organisations: [d.organisation] }),
    XeroTaxRatesResponse.parse({ TaxRates: JSON.parse(JSON.stringify(d.profile.taxRates)) }),
  );
}

const wire = <T>(v: T): unknown => JSON.parse(JSON.stringify(v));

function invoices(d: TenantDataset): Array<SourceRecord<XeroInvoice>> {
  return d.invoices.map((i) => {
    const raw = XeroInvoice.parse(wire(i));
    return toSourceRecord(raw, raw.InvoiceID, raw.Status, 'GET /Invoices');
  });
}

function creditNotes(d: TenantDataset): Array<SourceRecord<XeroCreditNote>> {
  return d.creditNotes.map((c) => {
    const raw = XeroCreditNote.parse(wire(c));
    return toSourceRecord(raw, raw.CreditNoteID, raw.Status, 'GET /CreditNotes');
  });
}

const ctxFor = (d: TenantDataset, baseCurrency = 'INR'): MapContext => ({
  connectionId: 'xero-prop',
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency,
  lookups: lookupsOf(d),
});

/** A random change to a raw record: garbage, missing fields, off-by-a-paisa amounts, odd rates. */
const perturbation = fc.oneof(
  fc.record({
    path: fc.constantFrom(
      'SubTotal',
      'Total',
      'TotalTax',
      'AmountPaid',
      'AmountDue',
      'AmountCredited',
      'RemainingCredit',
      'CurrencyRate',
    ),
    value: fc.oneof(
      fc.constant(null),
      fc.constant('abc'),
      fc.constant('1,200.00'),
      fc.double(),
      fc.integer({ min: -5, max: 5 }).map((n) => n / 100),
      fc.constant(0),
      fc.constant(1),
    ),
  }),
  fc.record({
    path: fc.constantFrom('Date', 'DueDate', 'DateString', 'UpdatedDateUTC'),
    value: fc.oneof(
      fc.constant('/Date(abc)/'),
      fc.constant('2025-02-30T00:00:00'),
      fc.constant(null),
      fc.constant('/Date(1739145600000-0530)/'),
    ),
  }),
  fc.record({
    path: fc.constantFrom('LineAmountTypes', 'CurrencyCode', 'Status', 'Type', 'InvoiceNumber', 'CreditNoteNumber'),
    value: fc.oneof(fc.constant(null), fc.constant(''), fc.string({ maxLength: 6 })),
  }),
  fc.record({
    path: fc.constantFrom(
      'line.LineAmount',
      'line.TaxAmount',
      'line.Quantity',
      'line.UnitAmount',
      'line.DiscountRate',
      'line.DiscountAmount',
      'line.TaxType',
    ),
    value: fc.oneof(
      fc.constant(null),
      fc.constant('x'),
      fc.double({ noNaN: false }),
      fc.constant(0.01),
      fc.constant(-1),
      fc.constant('UNKNOWN'),
      fc.constant(150),
    ),
  }),
  fc.record({ path: fc.constant('LineItems'), value: fc.oneof(fc.constant(null), fc.constant([])) }),
);

function perturb<T extends Record<string, unknown>>(raw: T, p: { path: string; value: unknown }): T {
  const copy = structuredClone(raw) as Record<string, unknown>;
  if (p.path.startsWith('line.')) {
    const lines = copy.LineItems as Array<Record<string, unknown>> | undefined;
    if (lines?.[0]) lines[0][p.path.slice(5)] = p.value;
  } else copy[p.path] = p.value;
  return copy as T;
}

describe('Xero mapping properties', () => {
  it('given untouched generated INR-organisation documents, then every one maps to a schema-valid body whose money adds up exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const india = dataset(seed)[0]!;
        const ctx = ctxFor(india);
        for (const r of invoices(india).filter((x) => x.raw.Type === 'ACCREC')) {
          const m = toInvoice(r, ctx);
          if (!m.ok) throw new Error(`${r.raw.InvoiceNumber}: ${m.reason} ${m.message}`);
          if (m.value.kind !== 'invoice') throw new Error('kind');
          const inv = InvoiceUpsertBody.parse({ invoice: m.value.invoice }).invoice;
          const lines = inv.lineItems ?? [];
          expect(sumMoney(lines.map((l) => new Money(l.subTotal))).eq(inv.invoiceSubtotal)).toBe(true);
          expect(sumMoney(lines.map((l) => new Money(l.tax?.total ?? 0))).eq(inv.invoiceTax?.total ?? 0)).toBe(true);
          expect(new Money(inv.invoiceSubtotal).plus(inv.invoiceTax?.total ?? 0).eq(inv.invoiceTotal)).toBe(true);
          const gstTax = inv.invoiceTax?.gstTax;
          if (gstTax) expect(new Money(gstTax.cgst).plus(gstTax.sgst).plus(gstTax.igst).eq(gstTax.totalGst)).toBe(true);
          if (inv.invoiceCurrency !== 'INR')
            expect(inv.exchangeRate !== undefined && inv.exchangeRate !== 1).toBe(true);
          else expect(inv.exchangeRate).toBeUndefined();
        }
        for (const r of creditNotes(india).filter((x) => x.raw.Type === 'ACCRECCREDIT')) {
          const m = toCreditNote(r, ctx);
          if (!m.ok) throw new Error(`${r.raw.CreditNoteNumber}: ${m.reason} ${m.message}`);
          if (m.value.kind !== 'credit-note') throw new Error('kind');
          const cn = CreditNoteUpsertBody.parse({ creditNote: m.value.creditNote }).creditNote;
          const applied = sumMoney((cn.appliedToInvoices ?? []).map((a) => new Money(a.amount)));
          if (cn.metaData?.sourceStatus === 'AUTHORISED' || cn.metaData?.sourceStatus === 'PAID') {
            expect(applied.plus(cn.creditNoteRemainingAmount ?? 0).eq(cn.creditNoteTotal)).toBe(true);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('given the AUD organisation and an INR billing company, then only INR documents map and every other is FX_UNDERIVABLE, never a 1:1 body', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const au = dataset(seed)[1]!;
        for (const r of invoices(au).filter((x) => x.raw.Type === 'ACCREC')) {
          const m = toInvoice(r, ctxFor(au, 'INR'));
          if (r.raw.CurrencyCode === 'INR') expect(m.ok).toBe(true);
          else expect(m).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE' });
          expect(toInvoice(r, ctxFor(au, 'AUD')).ok).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('given random perturbations, then the mappers never throw and answer a valid body or a typed quarantine reason', () => {
    const data = dataset(7);
    const docs = data.flatMap((d) => [
      ...invoices(d).map((r) => ({ kind: 'invoice' as const, r, ctx: ctxFor(d) })),
      ...creditNotes(d).map((r) => ({ kind: 'credit-note' as const, r, ctx: ctxFor(d) })),
    ]);
    let reached = 0;
    fc.assert(
      fc.property(
        fc.nat({ max: docs.length - 1 }),
        fc.array(perturbation, { minLength: 1, maxLength: 3 }),
        (index, changes) => {
          const doc = docs[index]!;
          let raw = doc.r.raw as Record<string, unknown>;
          for (const c of changes) raw = perturb(raw, c);
          // As on the wire: the stream's schema reads the page first (a shape it refuses fails the page with a
          // DataContractError, before any mapper runs); what it accepts reaches the mapper.
          const parsed = (doc.kind === 'invoice' ? XeroInvoice : XeroCreditNote).safeParse(wire(raw));
          if (!parsed.success) return;
          const record = { ...doc.r, raw: parsed.data } as SourceRecord<never>;
          reached++;
          const m = doc.kind === 'invoice' ? toInvoice(record, doc.ctx) : toCreditNote(record, doc.ctx);
          if (m.ok) {
            if (m.value.kind === 'invoice')
              expect(() =>
                InvoiceUpsertBody.parse({ invoice: m.value.kind === 'invoice' ? m.value.invoice : undefined }),
              ).not.toThrow();
            if (m.value.kind === 'credit-note')
              expect(() =>
                CreditNoteUpsertBody.parse({
                  creditNote: m.value.kind === 'credit-note' ? m.value.creditNote : undefined,
                }),
              ).not.toThrow();
          } else {
            expect(QUARANTINE_REASON_CODES).toContain(m.reason);
            expect(m.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(reached).toBeGreaterThan(250);
  });
});
