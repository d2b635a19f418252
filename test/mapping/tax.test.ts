import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tax } from '../../src/billing/schemas/tax.js';
import { dec, Money, minorUnit, sumMoney } from '../../src/mapping/money.js';
import {
  buildTax,
  interStateTax,
  isIntraState,
  splitByComponentRates,
  splitGst,
  splitIntraState,
  type TaxComponent,
} from '../../src/mapping/tax.js';

const c = (kind: TaxComponent['kind'], amount: string, rate: string, name?: string): TaxComponent => ({
  kind,
  amount: dec(amount),
  rate: dec(rate),
  ...(name ? { name } : {}),
});

describe('buildTax', () => {
  it('given intra-state CGST 9 % and SGST 9 % (Zoho sample 5.1), when built, then gstTax and the flat fields carry both halves', () => {
    const r = buildTax([c('cgst', '6750', '9'), c('sgst', '6750', '9')], 'INR');
    expect(r).toEqual({
      ok: true,
      value: {
        total: 13500,
        tds: 0,
        gstTax: {
          totalGst: 13500,
          totalGstRate: 18,
          cgst: 6750,
          cgstRate: 9,
          sgst: 6750,
          sgstRate: 9,
          igst: 0,
          igstRate: 0,
        },
        cgst: 6750,
        sgst: 6750,
        igst: 0,
      },
    });
    expect(Tax.parse(r.ok && r.value)).toEqual(r.ok && r.value);
  });

  it('given inter-state IGST 18 % (QuickBooks sample 5.2), when built, then only IGST is set', () => {
    const r = buildTax([c('igst', '10800', '18')], 'INR');
    expect(r.ok && r.value.gstTax).toEqual({
      totalGst: 10800,
      totalGstRate: 18,
      cgst: 0,
      cgstRate: 0,
      sgst: 0,
      sgstRate: 0,
      igst: 10800,
      igstRate: 18,
    });
    expect(r.ok && r.value.total).toBe(10800);
    expect(r.ok && r.warnings).toBeUndefined();
  });

  it('given GST, cess and a named other tax, when built, then the total includes all of them', () => {
    const r = buildTax(
      [c('cgst', '140', '14'), c('sgst', '140', '14'), c('cess', '120', '12'), c('other', '5.5', '0.5', 'Green levy')],
      'INR',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.total).toBe(405.5);
    expect(r.value.cessTax).toEqual({ cess: 120, cessRate: 12 });
    expect(r.value.otherTaxes).toEqual([{ name: 'Green levy', genericTax: 5.5, genericTaxRate: 0.5 }]);
    expect(Tax.safeParse(r.value).success).toBe(true);
  });

  it('given a non-Indian tax only (Xero AUD GST as "other"), when built, then there is no gstTax and no flat GST fields', () => {
    const r = buildTax([c('other', '240', '10', 'GST on Income')], 'AUD');
    expect(r.ok && r.value).toEqual({
      total: 240,
      tds: 0,
      otherTaxes: [{ name: 'GST on Income', genericTax: 240, genericTaxRate: 10 }],
    });
  });

  it('given no components, when built, then the tax is zero', () => {
    expect(buildTax([], 'INR')).toEqual({ ok: true, value: { total: 0, tds: 0 } });
  });

  it('given UTGST (a union territory), when built, then it fills the SGST slot', () => {
    const r = buildTax([c('cgst', '9', '9'), c('utgst', '9', '9')], 'INR');
    expect(r.ok && r.value.sgst).toBe(9);
    expect(r.ok && r.warnings).toBeUndefined();
  });

  it('given lines at 9 % and 14 % CGST, when built, then the rate is the effective one and a warning says so', () => {
    const r = buildTax(
      [c('cgst', '90', '9'), c('cgst', '140', '14'), c('sgst', '90', '9'), c('sgst', '140', '14')],
      'INR',
    );
    expect(r.ok && r.value.gstTax?.cgstRate).toBe(11.5);
    expect(r.ok && r.value.gstTax?.cgst).toBe(230);
    expect(r.ok && r.warnings?.[0]).toMatch(/CGST has mixed rates 9, 14; sending the effective rate 11\.5/);
  });

  it('given components with sub-paisa amounts, when built, then each is rounded half-up and the totals are sums of what is sent', () => {
    const r = buildTax([c('cgst', '9.005', '9'), c('sgst', '9.004', '9')], 'INR');
    expect(r.ok && [r.value.cgst, r.value.sgst, r.value.gstTax?.totalGst, r.value.total]).toEqual([
      9.01, 9, 18.01, 18.01,
    ]);
  });

  it.each([
    [[c('igst', '18', '18'), c('cgst', '9', '9'), c('sgst', '9', '9')], /IGST and CGST\/SGST both present/],
    [[c('cgst', '9', '9')], /CGST present without SGST/],
    [[c('cgst', '9', '9'), c('sgst', '6', '6')], /CGST rate 9 differs from SGST rate 6/],
  ])('given an unusual GST shape, when built, then it still maps and warns', (components, warning) => {
    const r = buildTax(components, 'INR');
    expect(r.ok).toBe(true);
    expect(r.ok && r.warnings?.join('\n')).toMatch(warning);
  });

  it('given a negative rate, then INVALID_FIELD; given an unnamed other tax, then MISSING_FIELD', () => {
    expect(buildTax([c('igst', '1', '-18')], 'INR', 'lineItems.0.tax')).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
      field: 'lineItems.0.tax',
    });
    expect(buildTax([c('other', '1', '1')], 'INR')).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
  });

  it('given an amount a JSON number cannot carry, then INVALID_FIELD instead of a throw', () => {
    expect(buildTax([c('igst', '123456789012345678.91', '18')], 'INR')).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
    });
  });
});

describe('splitIntraState (CGST gets the odd paisa)', () => {
  it.each([
    ['18.00', 'INR', '9', '9'],
    ['18.01', 'INR', '9.01', '9'],
    ['0.01', 'INR', '0.01', '0'],
    ['-18.01', 'INR', '-9.01', '-9'],
    ['13500', 'INR', '6750', '6750'],
    ['101', 'JPY', '51', '50'],
    ['0.003', 'KWD', '0.002', '0.001'],
    ['18.005', 'INR', '9.01', '9'], // rounded to 18.01 first
  ])('given a combined %s %s at 18 %%, when split, then CGST is %s and SGST %s', (amount, currency, cgst, sgst) => {
    const [a, b] = splitIntraState(dec(amount), dec(18), currency);
    expect([a.kind, a.amount.toFixed(), a.rate.toFixed()]).toEqual(['cgst', cgst, '9']);
    expect([b.kind, b.amount.toFixed(), b.rate.toFixed()]).toEqual(['sgst', sgst, '9']);
  });

  it('given any amount in minor units, when split, then the halves sum exactly and differ by at most one minor unit, CGST never smaller', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100_000_000, max: 100_000_000 }),
        fc.constantFrom('INR', 'JPY', 'KWD'),
        (units, currency) => {
          const amount = new Money(units).times(minorUnit(currency));
          const [cgst, sgst] = splitIntraState(amount, dec(5), currency);
          expect(cgst.amount.plus(sgst.amount).eq(amount)).toBe(true);
          const gap = cgst.amount.abs().minus(sgst.amount.abs());
          expect(gap.gte(0) && gap.lte(minorUnit(currency))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('splitByComponentRates and interStateTax', () => {
  it('given Xero "GST 18%" = CGST 9 + SGST 9 and a combined TaxAmount, when split, then proportional halves', () => {
    const parts = splitByComponentRates(
      dec('180.05'),
      [
        { kind: 'cgst', rate: dec(9) },
        { kind: 'sgst', rate: dec(9) },
      ],
      'INR',
    );
    expect(parts.map((p) => p.amount.toFixed())).toEqual(['90.03', '90.02']);
  });

  it('given GST 28 % plus cess 12 % combined, when split by rates, then it sums exactly', () => {
    const parts = splitByComponentRates(
      dec('400.01'),
      [
        { kind: 'cgst', rate: dec(14) },
        { kind: 'sgst', rate: dec(14) },
        { kind: 'cess', rate: dec(12) },
      ],
      'INR',
    );
    expect(parts.map((p) => p.amount.toFixed())).toEqual(['140.01', '140', '120']);
    expect(sumMoney(parts.map((p) => p.amount)).toFixed()).toBe('400.01');
  });

  it('given an inter-state supply, then the whole amount is IGST at the full rate', () => {
    const [igst] = interStateTax(dec('10800.004'), dec(18), 'INR');
    expect([igst.kind, igst.amount.toFixed(), igst.rate.toFixed()]).toEqual(['igst', '10800', '18']);
  });
});

describe('isIntraState and splitGst', () => {
  it.each([
    ['KA', 'KA', true],
    ['29', 'KA', true],
    ['Karnataka', '29', true],
    ['ka', 'IN-KA', true],
    ['TS', 'TG', true],
    ['KA', 'TN', false],
    ['27', 'MH', true],
    ['MH', '29', false],
  ])('given supplier %s and place of supply %s, then intra-state is %s', (supplier, place, expected) => {
    expect(isIntraState(supplier, place)).toEqual({ ok: true, value: expected });
  });

  it('given an unknown or missing state, then a typed failure, never a guess', () => {
    expect(isIntraState('KA', 'XX')).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'placeOfSupply' });
    expect(isIntraState(undefined, 'KA')).toMatchObject({ ok: false, reason: 'MISSING_FIELD', field: 'supplierState' });
  });

  it('given a combined line tax, when split by geography, then intra gives CGST+SGST and inter gives IGST', () => {
    const intra = splitGst({
      amount: dec('18.01'),
      rate: dec(18),
      currency: 'INR',
      supplierState: '29',
      placeOfSupply: 'KA',
    });
    expect(intra.ok && intra.value.map((t) => [t.kind, t.amount.toFixed()])).toEqual([
      ['cgst', '9.01'],
      ['sgst', '9'],
    ]);
    const inter = splitGst({
      amount: dec('18.01'),
      rate: dec(18),
      currency: 'INR',
      supplierState: 'KA',
      placeOfSupply: 'MH',
    });
    expect(inter.ok && inter.value.map((t) => [t.kind, t.amount.toFixed()])).toEqual([['igst', '18.01']]);
    expect(
      splitGst({ amount: dec(1), rate: dec(18), currency: 'INR', supplierState: 'KA', placeOfSupply: '' }),
    ).toMatchObject({
      ok: false,
      reason: 'MISSING_FIELD',
    });
  });
});
