import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { invoiceOf, lookups, mapContext, variant } from '../fixtures.js';

describe('exchange rates (map/fx.ts)', () => {
  it('given a USD invoice in the INR organisation with exchange_rate 83.125 (INR per USD, Zoho’s direction), then exchangeRate is 83.125, as sent', () => {
    const invoice = invoiceOf(toInvoice(variant('invoice-usd-in-inr-org', 'invoice'), mapContext()));
    // https://www.zoho.com/books/api/v3/invoices/: exchange_rate is base units per invoice unit (1 EUR = 1.18 USD
    // for a USD organisation). Billing: base = invoice × exchangeRate, so no inversion: 83.125.
    // By hand: 6650.50 USD × 83.125 = 552822.8125 → 552822.81 INR, Zoho's bcy_total.
    expect(invoice).toMatchObject({ invoiceCurrency: 'USD', invoiceTotal: 6650.5, exchangeRate: 83.125 });
    expect(Math.round(invoice.invoiceTotal * invoice.exchangeRate! * 100) / 100).toBe(552822.81);
  });

  it("given no exchange_rate but Zoho's base-currency total, then the rate is derived from bcy_total (with a warning)", () => {
    const r = toInvoice(
      variant('invoice-usd-in-inr-org', 'invoice', (i) => delete i.exchange_rate),
      mapContext(),
    );
    expect(invoiceOf(r).exchangeRate).toBe(83.12499962);
    expect(r.ok && r.warnings).toEqual(['exchange_rate derived from base-currency totals: 83.12499962']);
  });

  it('given a rate read in the wrong direction (INR per USD inverted), then FX_SUSPECT says the inverse matches', () => {
    const r = toInvoice(
      variant('invoice-usd-in-inr-org', 'invoice', (i) => (i.exchange_rate = 0.0120300752)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'FX_SUSPECT' });
    expect(!r.ok && r.message).toContain('the inverse rate matches');
  });

  it('given a Zoho organisation whose base currency is not the billing base, then its own-currency invoices cannot be converted (FX_UNDERIVABLE), billing-base ones need no rate', () => {
    const usdOrg = lookups();
    usdOrg.organization.baseCurrency = 'USD';
    expect(
      toInvoice(
        variant('invoice-usd-in-inr-org', 'invoice', (i) => (i.exchange_rate = 1)),
        mapContext({ lookups: usdOrg }),
      ),
    ).toMatchObject({
      ok: false,
      reason: 'FX_UNDERIVABLE',
    });
    const inr = invoiceOf(
      toInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.exchange_rate = 0.012)),
        mapContext({ lookups: usdOrg }),
      ),
    );
    expect(inr.exchangeRate).toBeUndefined();
  });

  it('given a USD billing company, then a USD invoice needs no rate and an INR one is FX_UNDERIVABLE from an INR organisation', () => {
    expect(
      invoiceOf(toInvoice(variant('invoice-usd-in-inr-org', 'invoice'), mapContext({ baseCurrency: 'USD' })))
        .exchangeRate,
    ).toBeUndefined();
    expect(toInvoice(variant('invoice-intra-state', 'invoice'), mapContext({ baseCurrency: 'USD' }))).toMatchObject({
      ok: false,
      reason: 'FX_UNDERIVABLE',
    });
  });

  it('given a USD credit note with a string exchange rate, then it converts like an invoice', () => {
    const r = toCreditNote(
      variant('credit-note-two-invoices', 'creditnote', (c) => {
        c.currency_code = 'USD';
        c.exchange_rate = '83.250';
        c.bcy_total = 196470;
      }),
      mapContext(),
    );
    expect(r.ok && r.value.kind === 'credit-note' && r.value.creditNote.exchangeRate).toBe(83.25);
  });
});
