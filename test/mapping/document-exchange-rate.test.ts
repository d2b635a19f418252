import { describe, expect, it } from 'vitest';
import { documentExchangeRate, type DocumentExchangeRateInput } from '../../src/mapping/document-exchange-rate.js';
import { Money } from '../../src/mapping/money.js';
import { mapOk } from '../../src/mapping/quarantine-reason.js';
import { mapping } from '../../src/mapping/steps.js';

const usdInvoice: DocumentExchangeRateInput = {
  documentCurrency: 'USD',
  organisationBase: 'INR',
  billingBase: ' inr ',
  rate: 83.25,
  direction: 'base-per-foreign',
  rateField: 'exchange_rate',
  source: 'Zoho Books',
};

function run(input: DocumentExchangeRateInput) {
  return mapping((s) => {
    const r = documentExchangeRate(s, input);
    return { ...mapOk({ exchangeRate: r.exchangeRate, baseTotal: r.baseTotal?.toFixed() }), warnings: s.warnings };
  });
}

describe('documentExchangeRate', () => {
  it('given a foreign document in an organisation on the billing base, when the rate is read, then it is the vendor rate', () => {
    expect(run(usdInvoice)).toEqual({ ok: true, value: { exchangeRate: 83.25, baseTotal: undefined }, warnings: [] });
  });

  it('given a document in the billing base, when the rate is read, then there is none whatever the organisation base', () => {
    expect(run({ ...usdInvoice, documentCurrency: 'INR', organisationBase: 'SGD' })).toMatchObject({
      ok: true,
      value: { exchangeRate: undefined },
    });
  });

  it('given an organisation on another base and a malformed base total, when the rate is read, then the organisation-base rule answers first', () => {
    const r = run({
      ...usdInvoice,
      organisationBase: 'SGD',
      baseTotal: { raw: 'abc', field: 'bcy_total', total: Money('100') },
    });
    expect(r).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE', field: 'exchange_rate' });
  });

  it('given a malformed base total, when the rate is read, then the base total fails the record', () => {
    const r = run({ ...usdInvoice, baseTotal: { raw: 'abc', field: 'bcy_total', total: Money('100') } });
    expect(r).toMatchObject({ ok: false, field: 'bcy_total' });
  });

  it('given a missing rate and a base total, when the rate is read, then it is derived from the totals and the base total comes back', () => {
    const r = run({
      ...usdInvoice,
      rate: undefined,
      baseTotal: { raw: '8325.00', field: 'bcy_total', total: Money('100') },
    });
    expect(r).toMatchObject({ ok: true, value: { exchangeRate: 83.25, baseTotal: '8325' } });
  });

  it('given a foreign-per-base vendor rate and no base total, when the rate is read, then it is inverted', () => {
    const r = run({
      ...usdInvoice,
      rate: 0.0125,
      direction: 'foreign-per-base',
      rateField: 'CurrencyRate',
      source: 'Xero',
    });
    expect(r).toMatchObject({ ok: true, value: { exchangeRate: 80 } });
  });
});
