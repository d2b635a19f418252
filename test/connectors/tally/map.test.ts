import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../connectors/tally/client.js';
import tally from '../../../connectors/tally/index.js';
import { parseTallyAmount, parseTallyQuantity, parseTallyRate } from '../../../connectors/tally/map/tally-values.js';
import { startTallyEmulator, type TallyEmulator } from '../../../sandbox/tally/index.js';
import type { TallyVoucher } from '../../../sandbox/tally/tally-model.js';
import type { MapContext, ReadContext, SourceRecord } from '../../../src/connector/types.js';

/**
 * Tally vouchers read from the emulator and mapped: every figure billing receives is Tally's, to the
 * paisa (the emulator's books are in integer paise), GST by ledger, round-off, IRN, credit notes with
 * the invoices they settle, cancelled vouchers as voids.
 */
const silent = pino({ level: 'silent' });
let emu: TallyEmulator;
let ctx: ReadContext;
let mapCtx: MapContext;
const read: Record<'invoices' | 'credit-notes', SourceRecord[]> = { invoices: [], 'credit-notes': [] };

beforeAll(async () => {
  emu = await startTallyEmulator({ seed: 11, invoices: 60, creditNotes: 12, customers: 14 });
  const settings = tally.settings.parse({ url: emu.url, company: emu.companyName, lookupsCacheSeconds: 0 });
  ctx = {
    connectionId: 'tally-map',
    http: createClient({ connectionId: 'tally-map', settings, tokens: {} as never, logger: silent }),
    logger: silent,
    until: new Date(),
    settings,
  };
  for (const entity of ['invoices', 'credit-notes'] as const)
    for await (const page of tally.streams[entity].read(ctx, { cursor: null })) read[entity].push(...page.records);
  mapCtx = {
    connectionId: 'tally-map',
    originSource: 'EXTERNAL_SYSTEM_A',
    baseCurrency: 'INR',
    lookups: await tally.streams.invoices.lookups!(ctx),
  };
});
afterAll(() => emu.close());

const rupees = (paise: number) => paise / 100;
const ledgerSum = (v: TallyVoucher, prefix: string) =>
  v.ledgers.filter((l) => l.ledgerName.startsWith(prefix)).reduce((s, l) => s + l.amountPaise, 0);

function mapped(entity: 'invoices' | 'credit-notes', v: TallyVoucher) {
  const record = read[entity].find((r) => r.id === v.guid)!;
  const result = tally.streams[entity].map(record, mapCtx);
  if (!result.ok) throw new Error(`${v.voucherNumber}: ${result.reason} ${result.message}`);
  return result.value;
}

describe('Tally mapping', () => {
  it("given every Sales voucher, when mapped, then total, subtotal and each GST head are Tally's own figures, the lines' taxes add up to them, and place of supply is the state's code", () => {
    for (const v of emu.store.invoices()) {
      const body = mapped('invoices', v);
      if (body.kind !== 'invoice') throw new Error('not an invoice');
      const inv = body.invoice;
      const gst = inv.invoiceTax?.gstTax;
      // The invoice's value: what the party owes plus the TDS it withheld (a debit to the TDS ledger).
      const withheld = 0 - ledgerSum(v, 'TDS Receivable');
      expect(inv.invoiceTotal, v.voucherNumber).toBe(rupees(withheld - v.ledgers[0]!.amountPaise));
      expect(inv.invoiceAdjustedAmount).toBe(rupees(withheld));
      expect(inv.invoiceSubtotal).toBe(rupees(v.inventory.reduce((s, i) => s + i.amountPaise, 0)));
      expect(gst?.cgst ?? 0).toBe(rupees(ledgerSum(v, 'Output CGST')));
      expect(gst?.sgst ?? 0).toBe(rupees(ledgerSum(v, 'Output SGST')));
      expect(gst?.igst ?? 0).toBe(rupees(ledgerSum(v, 'Output IGST')));
      expect(inv.invoiceTax?.cessTax?.cess ?? 0).toBe(rupees(ledgerSum(v, 'Output Cess')));
      const lineTax = (inv.lineItems ?? []).reduce((s, l) => s + Math.round((l.tax?.total ?? 0) * 100), 0);
      expect(lineTax).toBe(Math.round((inv.invoiceTax?.total ?? 0) * 100));
      const roundOff = v.ledgers.find((l) => l.ledgerName === 'Round Off');
      expect(inv.createInvoiceAdjustments?.find((a) => a.name === 'Round off')?.amount).toBe(
        roundOff ? rupees(roundOff.amountPaise) : undefined,
      );
      expect(inv.placeOfSupply).toBe(
        v.placeOfSupply === 'Karnataka' ? 'KA' : v.placeOfSupply === '' ? undefined : inv.placeOfSupply,
      );
      expect(inv.irnNumber).toBe(v.irn);
      if (v.isCancelled) expect([inv.invoiceTotal, inv.metaData?.sourceStatus]).toEqual([0, 'cancelled']);
    }
  });

  it("given Sales vouchers on which the buyer deducted TDS, when mapped, then tdsTax is the TDS ledger's amount at its rate, it is adjusted (settled), and billing's outstanding is the party's entry, to the paisa", () => {
    const withTds = emu.store.invoices().filter((v) => !v.isCancelled && ledgerSum(v, 'TDS Receivable') !== 0);
    expect(withTds.length).toBeGreaterThan(2);
    for (const v of withTds) {
      const inv = mapped('invoices', v);
      if (inv.kind !== 'invoice') throw new Error('not an invoice');
      const tdsPaise = -ledgerSum(v, 'TDS Receivable');
      const goods = v.inventory.reduce((s, i) => s + i.amountPaise, 0);
      // 194J: 10 % of the value before GST, to the paisa.
      expect(tdsPaise, v.voucherNumber).toBe(Math.round(goods / 10));
      expect(inv.invoice.invoiceTax?.tdsTax).toEqual({ tds: rupees(tdsPaise), tdsRate: 10 });
      expect(inv.invoice.invoiceTax?.tds).toBe(rupees(tdsPaise));
      expect(inv.invoice.createInvoiceAdjustments?.some((a) => /tds/i.test(a.name ?? ''))).toBeFalsy();
      const outstanding = Math.round(
        (inv.invoice.invoiceTotal - inv.invoice.invoicePaidAmount! - inv.invoice.invoiceAdjustedAmount!) * 100,
      );
      expect(outstanding).toBe(-v.ledgers[0]!.amountPaise);
    }
  });

  it('given a TDS entry a paisa off, when mapped, then AMOUNTS_INCONSISTENT: the TDS entry counts in the balance', () => {
    const v = emu.store.invoices().find((x) => !x.isCancelled && ledgerSum(x, 'TDS Receivable') !== 0)!;
    const record = structuredClone(read.invoices.find((r) => r.id === v.guid)!);
    const entries = (record.raw as { 'LEDGERENTRIES.LIST': Array<{ LEDGERNAME: string; AMOUNT: string }> })[
      'LEDGERENTRIES.LIST'
    ];
    const tds = entries.find((e) => e.LEDGERNAME.startsWith('TDS Receivable'))!;
    tds.AMOUNT = (Number(tds.AMOUNT) - 0.01).toFixed(2);
    expect(tally.streams.invoices.map(record, mapCtx)).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT' });
  });

  it('given a Credit Note voucher against an invoice, when mapped, then it settles that invoice by number for its whole amount', () => {
    const notes = emu.store.creditNotes().filter((c) => !c.isCancelled);
    expect(notes.length).toBeGreaterThan(0);
    for (const c of notes) {
      const body = mapped('credit-notes', c);
      if (body.kind !== 'credit-note') throw new Error('not a credit note');
      const total = rupees(c.ledgers[0]!.amountPaise);
      expect(body.creditNote.creditNoteTotal).toBe(total);
      expect(body.creditNote.appliedToInvoices).toEqual([{ invoiceNumber: c.reference, amount: total }]);
      expect(body.creditNote.creditNoteRemainingAmount).toBe(0);
    }
  });

  it('given a voucher whose party entry is a paisa off, when mapped, then AMOUNTS_INCONSISTENT: the entries do not balance', () => {
    const v = emu.store.invoices().find((x) => !x.isCancelled)!;
    const record = structuredClone(read.invoices.find((r) => r.id === v.guid)!);
    const party = (record.raw as { 'LEDGERENTRIES.LIST': Array<{ AMOUNT: string }> })['LEDGERENTRIES.LIST'][0]!;
    party.AMOUNT = (Number(party.AMOUNT) - 0.01).toFixed(2);
    expect(tally.streams.invoices.map(record, mapCtx)).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'LEDGERENTRIES.LIST',
    });
  });

  it("given Tally's formats, when parsed, then amounts, rates and quantities are exact decimals", () => {
    const value = <T>(r: { ok: boolean; value?: T }) => r.value;
    expect(value(parseTallyAmount('-59000.00', 'a'))!.toFixed(2)).toBe('-59000.00');
    expect(value(parseTallyAmount('1,00,000.10', 'a'))!.toFixed(2)).toBe('100000.10');
    expect(value(parseTallyRate('50,000.00/Nos', 'r'))).toMatchObject({ unit: 'Nos' });
    expect(value(parseTallyRate('50,000.00/Nos', 'r'))!.value.toFixed(2)).toBe('50000.00');
    expect(value(parseTallyQuantity(' 1 Nos', 'q'))!.value.toFixed()).toBe('1');
    expect(value(parseTallyQuantity('-2.500 Kgs', 'q'))).toMatchObject({ unit: 'Kgs' });
    expect(parseTallyAmount('$1,200.00 @ ₹ 83.25/$ = ₹ 99,900.00', 'AMOUNT')).toMatchObject({
      ok: false,
      reason: 'UNSUPPORTED',
    });
  });
});
