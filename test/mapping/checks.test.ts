import { describe, expect, it } from 'vitest';
import {
  checkBalance,
  checkInvoiceTotal,
  checkLinesSum,
  checkNonNegative,
  checkPaidWithinTotal,
  checkTaxSum,
  finalizeCreditNote,
  finalizeCustomer,
  finalizeInvoice,
} from '../../src/mapping/checks.js';
import { dec } from '../../src/mapping/money.js';

const D = (xs: string[]) => xs.map((x) => dec(x));

describe('checkLinesSum', () => {
  it('given the Zoho sample lines 50000 + 25000 and subtotal 75000, then consistent', () => {
    expect(
      checkLinesSum({ lineSubtotals: D(['50000', '25000']), subtotal: dec(75000), currency: 'INR' }),
    ).toBeUndefined();
  });

  it('given lines one paisa off the subtotal, then tolerated; two paise off, then AMOUNTS_INCONSISTENT with the figures', () => {
    expect(
      checkLinesSum({ lineSubtotals: D(['33.33', '33.33', '33.33']), subtotal: dec(100), currency: 'INR' }),
    ).toBeUndefined();
    expect(
      checkLinesSum({ lineSubtotals: D(['33.33', '33.33', '33.32']), subtotal: dec(100), currency: 'INR' }),
    ).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
    });
    const bad = checkLinesSum({ lineSubtotals: D(['50000', '25000']), subtotal: dec('74000'), currency: 'INR' });
    expect(bad).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'subtotal' });
    expect(bad?.message).toBe('2 line(s) add up to 75000.00 but the subtotal is 74000.00 INR (difference 1000.00)');
  });

  it('given JPY, then the tolerance is one yen', () => {
    expect(checkLinesSum({ lineSubtotals: D(['1000', '2001']), subtotal: dec(3000), currency: 'JPY' })).toBeUndefined();
    expect(checkLinesSum({ lineSubtotals: D(['1000', '2002']), subtotal: dec(3000), currency: 'JPY' })).toBeDefined();
  });

  it('given a stricter tolerance of 0, then even one minor unit fails', () => {
    expect(
      checkLinesSum({ lineSubtotals: D(['1.001']), subtotal: dec('1.000'), currency: 'KWD', toleranceMinorUnits: 0 }),
    ).toMatchObject({
      reason: 'AMOUNTS_INCONSISTENT',
    });
  });
});

describe('checkInvoiceTotal', () => {
  it.each([
    ['the Zoho sample', { subtotal: '75000', tax: '13500', total: '88500' }],
    ['the QuickBooks sample', { subtotal: '60000', tax: '10800', total: '70800' }],
    [
      'discount, shipping, adjustment and round-off',
      { subtotal: '1000', discount: '100', tax: '162', adjustments: ['50', '-2.5'], rounding: '0.5', total: '1110' },
    ],
    ['a one-paisa tax rounding gap', { subtotal: '100.05', tax: '18.01', total: '118.05' }],
    ['KWD with 3 decimals', { subtotal: '10.125', tax: '0.506', total: '10.631' }],
  ])('given %s, then subtotal − discount + tax + adjustments + rounding = total', (_, p) => {
    expect(
      checkInvoiceTotal({
        subtotal: dec(p.subtotal),
        ...('discount' in p ? { discount: dec(p.discount) } : {}),
        tax: dec(p.tax),
        ...('adjustments' in p ? { adjustments: D(p.adjustments) } : {}),
        ...('rounding' in p ? { rounding: dec(p.rounding) } : {}),
        total: dec(p.total),
        currency: p.subtotal === '10.125' ? 'KWD' : 'INR',
      }),
    ).toBeUndefined();
  });

  it('given a total that does not add up, then AMOUNTS_INCONSISTENT with every figure in the message', () => {
    const bad = checkInvoiceTotal({ subtotal: dec(75000), tax: dec(13500), total: dec(88400), currency: 'INR' });
    expect(bad).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'total' });
    expect(bad?.message).toBe(
      'subtotal 75000.00 − discount 0.00 + tax 13500.00 + adjustments 0.00 + rounding 0.00 = 88500.00, ' +
        'but the total is 88400.00 INR (difference 100.00)',
    );
  });
});

describe('payments, balance, tax sum, sign', () => {
  it.each([
    ['40000', '88500', undefined],
    ['88500', '88500', undefined],
    ['88500.01', '88500', undefined],
    ['88500.02', '88500', 'AMOUNTS_INCONSISTENT'],
    ['-1', '88500', 'AMOUNTS_INCONSISTENT'],
  ])('given paid %s of total %s, then %s', (paid, total, reason) => {
    const r = checkPaidWithinTotal({ paid: dec(paid), total: dec(total), currency: 'INR' });
    expect(r?.reason).toBe(reason);
  });

  it('given the Zoho sample (88500 − 40000 = 48500), then the balance is consistent; a wrong balance is not', () => {
    expect(checkBalance({ total: dec(88500), paid: dec(40000), balance: dec(48500), currency: 'INR' })).toBeUndefined();
    expect(
      checkBalance({
        total: dec(2400),
        paid: dec(1000),
        credited: dec(200),
        writtenOff: dec(0),
        balance: dec(1200),
        currency: 'USD',
      }),
    ).toBeUndefined();
    const bad = checkBalance({ total: dec(88500), paid: dec(40000), balance: dec(40000), currency: 'INR' });
    expect(bad).toMatchObject({ reason: 'AMOUNTS_INCONSISTENT', field: 'balance' });
    expect(bad?.message).toMatch(/= 48500\.00, but the balance is 40000\.00 INR/);
  });

  it('given tax the customer withheld (TDS), when the balance is checked, then the withheld amount counts as settled and is named when it does not add up', () => {
    const withheld = { total: dec(118000), paid: dec(50000), withheld: dec(10000), currency: 'INR' };
    expect(checkBalance({ ...withheld, balance: dec(58000) })).toBeUndefined();
    const bad = checkBalance({ ...withheld, balance: dec(68000) });
    expect(bad?.message).toMatch(/− TDS withheld 10000\.00 = 58000\.00, but the balance is 68000\.00 INR/);
    expect(checkBalance({ total: dec(118000), paid: dec(50000), balance: dec(58000), currency: 'INR' })).toMatchObject({
      reason: 'AMOUNTS_INCONSISTENT',
    });
  });

  it('given Zoho taxes[] CGST 6750 + SGST 6750 against tax_total 13500, then consistent; against 13000, not', () => {
    expect(checkTaxSum({ components: D(['6750', '6750']), taxTotal: dec(13500), currency: 'INR' })).toBeUndefined();
    expect(checkTaxSum({ components: D(['6750', '6750']), taxTotal: dec(13000), currency: 'INR' })).toMatchObject({
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'tax',
    });
  });

  it('given a negative total, then AMOUNTS_INCONSISTENT; zero is fine', () => {
    expect(checkNonNegative(dec(-1), 'total', 'INR')).toMatchObject({ reason: 'AMOUNTS_INCONSISTENT', field: 'total' });
    expect(checkNonNegative(dec(0), 'total', 'INR')).toBeUndefined();
  });

  it('given several checks, when chained with ??, then the first failure wins', () => {
    const first =
      checkLinesSum({ lineSubtotals: D(['1']), subtotal: dec(1), currency: 'INR' }) ??
      checkInvoiceTotal({ subtotal: dec(1), total: dec(5), currency: 'INR' }) ??
      checkPaidWithinTotal({ paid: dec(9), total: dec(5), currency: 'INR' });
    expect(first?.field).toBe('total');
  });
});

describe('finalizeInvoice / finalizeCreditNote / finalizeCustomer', () => {
  const invoice = {
    invoiceId: 'inv.zoho-in.1890000000043211',
    invoiceNumber: 'INV-000214',
    invoiceDate: { date: '2025-02-10' },
    invoiceSubtotal: 75000,
    invoiceTotal: 88500,
    invoicePaidAmount: 40000,
    invoiceCurrency: 'INR',
    lineItems: [{ subTotal: 50000, total: 59000 }],
  };

  it('given a valid draft, then ok with billing defaults applied and warnings carried along; a source-dependent default the draft left out is reported, never applied silently', () => {
    const r = finalizeInvoice(invoice, ['mixed rates']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.invoiceOriginSource).toBe('OTHER');
    expect(r.value.invoiceAdjustedAmount).toBe(0);
    expect(r.value.lineItems?.[0]?.quantity).toBe(1);
    expect(r.warnings).toEqual([
      'mixed rates',
      'invoice.invoiceOriginSource not set from the source: billing\'s default "OTHER" applies',
      "invoice.invoiceAdjustedAmount not set from the source: billing's default 0 applies",
    ]);
  });

  it('given a customer whose country and currency the mapper left out, when finalized, then the body still carries billing’s defaults (IN, INR) but each is reported', () => {
    const r = finalizeCustomer({ buyerId: 'cust.qbo-us.2', name: "Bill's Windsurf Shop", isManuallyCreated: false });
    expect(r).toMatchObject({ ok: true, value: { countryCode: 'IN', currency: 'INR' } });
    expect(r.ok && r.warnings).toEqual([
      'customer.countryCode not set from the source: billing\'s default "IN" applies',
      'customer.currency not set from the source: billing\'s default "INR" applies',
    ]);
    const complete = finalizeCustomer({
      buyerId: 'cust.qbo-us.2',
      isManuallyCreated: false,
      countryCode: 'US',
      currency: 'USD',
    });
    expect(complete.ok && complete.warnings).toBeUndefined();
  });

  it('given an invoice whose customerDetails leaves out countryCode, then the warning names the nested path; no customerDetails at all, no warning about it', () => {
    const r = finalizeInvoice({
      ...invoice,
      invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
      invoiceAdjustedAmount: 0,
      customerDetails: { buyerId: 'b', isManuallyCreated: false, currency: 'INR' },
    });
    expect(r.ok && r.warnings).toEqual([
      'invoice.customerDetails.countryCode not set from the source: billing\'s default "IN" applies',
    ]);
    const bare = finalizeInvoice({ ...invoice, invoiceOriginSource: 'EXTERNAL_SYSTEM_A', invoiceAdjustedAmount: 0 });
    expect(bare.ok && bare.warnings).toBeUndefined();
  });

  it('given a draft the schema rejects, then SCHEMA_INVALID with zod paths and no values', () => {
    const r = finalizeInvoice({
      ...invoice,
      invoiceNumber: '',
      invoiceCurrency: 'rupees-secret-value',
      lineItems: [{ subTotal: Number.NaN }],
    });
    expect(r).toMatchObject({ ok: false, reason: 'SCHEMA_INVALID', field: 'invoice.invoiceNumber' });
    if (r.ok) return;
    expect(r.issues?.map((i) => i.split(':')[0])).toEqual([
      'invoice.invoiceNumber',
      'invoice.invoiceCurrency',
      'invoice.lineItems.0.subTotal',
    ]);
    expect(r.message).toMatch(/^invoice failed the billing schema: invoice\.invoiceNumber: /);
    expect(r.message).not.toContain('rupees-secret-value');
  });

  it('given an unknown key (strict schema), then SCHEMA_INVALID', () => {
    expect(finalizeInvoice({ ...invoice, invoiceStatus: 'PAID' } as never)).toMatchObject({
      ok: false,
      reason: 'SCHEMA_INVALID',
    });
  });

  it('given credit notes, then the CreditNoteInput schema decides', () => {
    const ok = finalizeCreditNote({
      creditNoteId: 'cn.zoho-in.1',
      creditNoteNumber: 'CN-1',
      creditNoteSubtotal: 100,
      creditNoteTotal: 118,
      appliedToInvoices: [{ invoiceId: 'inv.zoho-in.1', amount: 118 }],
    });
    expect(ok.ok && ok.value.creditNoteCurrency).toBe('INR');
    const bad = finalizeCreditNote({
      creditNoteId: 'cn.zoho-in.1',
      creditNoteNumber: 'CN-1',
      creditNoteSubtotal: 100,
      exchangeRate: 0,
    });
    expect(bad).toMatchObject({ ok: false, reason: 'SCHEMA_INVALID', field: 'creditNote.exchangeRate' });
  });

  it('given customers, then the CustomerDetails schema decides', () => {
    const ok = finalizeCustomer({ buyerId: 'cust.zoho-in.1890000000021005', name: 'Bharat Tooling Pvt Ltd' });
    expect(ok.ok && ok.value.countryCode).toBe('IN');
    expect(finalizeCustomer({ buyerId: '' })).toMatchObject({
      ok: false,
      reason: 'SCHEMA_INVALID',
      field: 'customer.buyerId',
    });
  });
});
