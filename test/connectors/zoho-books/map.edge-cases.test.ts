import { describe, expect, it } from 'vitest';
import type { InvoiceInput } from '../../../src/billing/schemas/index.js';
import type { MapResult } from '../../../src/mapping/index.js';
import type { BillingBody, SourceRecord } from '../../../src/connector/types.js';
import { mapZohoContact, mapZohoCreditNote, mapZohoInvoice, type ZohoLookups } from '../../../connectors/zoho-books/index.js';
import { fixture, mapContext } from './fixtures.js';

type Raw = Record<string, any>;

/** A fixture's record, changed by `edit`, as a SourceRecord. */
function variant(name: string, key: 'invoice' | 'creditnote' | 'contact', edit: (raw: Raw) => void = () => {}): SourceRecord<Raw> {
  const raw = structuredClone(fixture<Record<string, Raw>>(name)[key]!);
  edit(raw);
  return { id: 'x', version: '2025-01-01T00:00:00.000Z', raw };
}

function invoiceOf(result: MapResult<BillingBody>): InvoiceInput {
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  if (result.value.kind !== 'invoice') throw new Error('not an invoice');
  return result.value.invoice;
}

const lookups = () => fixture<ZohoLookups>('lookups');

describe('Zoho invoice mapping: taxes', () => {
  it("given Zoho's taxes[] a paisa above the per-line recomputation, then the line taxes are adjusted to add up to Zoho's figure exactly (with a warning)", () => {
    const r = mapZohoInvoice(
      variant('invoice-partially-paid', 'invoice', (i) => {
        i.taxes = [
          { tax_name: 'CGST2.5', tax_amount: 25.26 },
          { tax_name: 'SGST2.5', tax_amount: 25.25 },
        ];
        i.tax_total = 50.51;
        i.total = 1060.6;
        i.balance = 250.01;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.invoiceTax?.cgst).toBe(25.26);
    expect(inv.lineItems?.map((l) => l.tax?.cgst)).toEqual([25.01, 0.25]);
    expect(inv.lineItems?.map((l) => l.total)).toEqual([1050, 10.6]);
    expect(r.ok && r.warnings).toEqual(["taxes[] CGST2.5: line taxes adjusted by 0.01 to match Zoho's figure"]);
  });

  it("given taxes[] far from what the lines' rates give, then AMOUNTS_INCONSISTENT names the component", () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => {
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 6850 },
          { tax_name: 'SGST9', tax_amount: 6650 },
        ];
      }),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'taxes' });
    expect(!r.ok && r.message).toContain("taxes[] CGST9 is 6850.00 but the lines' tax (9%) comes to 6750.00 INR");
  });

  it('given taxes[] that do not add up to tax_total, then AMOUNTS_INCONSISTENT', () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.taxes[0].tax_amount = 6750.01)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'tax' });
  });

  it('given taxes[] names with a "(9%)" suffix, then they still resolve; names the settings do not know fall back to tax_total as a whole', () => {
    const suffixed = mapZohoInvoice(
      variant(
        'invoice-intra-state',
        'invoice',
        (i) =>
          (i.taxes = [
            { tax_name: 'CGST9 (9%)', tax_amount: 6750 },
            { tax_name: 'SGST9 (9%)', tax_amount: 6750 },
          ]),
      ),
      mapContext(),
    );
    expect(suffixed.ok && suffixed.warnings).toBeFalsy();
    const unknown = mapZohoInvoice(
      variant(
        'invoice-intra-state',
        'invoice',
        (i) =>
          (i.taxes = [
            { tax_name: 'Central tax', tax_amount: 6750 },
            { tax_name: 'State tax', tax_amount: 6750 },
          ]),
      ),
      mapContext(),
    );
    expect(invoiceOf(unknown).invoiceTax).toMatchObject({ total: 13500, cgst: 6750, sgst: 6750 });
    expect(unknown.ok && unknown.warnings).toEqual(['taxes[] names do not match the tax settings; line taxes reconciled to tax_total as a whole']);
  });

  it("given a line whose tax_id the settings do not have, then INVALID_FIELD on that line's tax_id", () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.line_items[1].tax_id = '999')),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'line_items.1.tax_id' });
  });

  it('given a 28 % + cess 12 % group, then the tax has GST and cess parts', () => {
    const l = lookups();
    l.taxes['401'] = { id: '401', name: 'CGST14', percentage: '14', isGroup: false, specificType: 'cgst', components: ['401'] };
    l.taxes['402'] = { id: '402', name: 'SGST14', percentage: '14', isGroup: false, specificType: 'sgst', components: ['402'] };
    l.taxes['403'] = { id: '403', name: 'Cess12', percentage: '12', isGroup: false, specificType: 'cess', components: ['403'] };
    l.taxes['404'] = { id: '404', name: 'GST28+Cess12', percentage: '40', isGroup: true, specificType: '', components: ['401', '402', '403'] };
    const r = mapZohoInvoice(
      variant('invoice-void', 'invoice', (i) => {
        i.status = 'sent';
        i.line_items[0].tax_id = '404';
        i.taxes = [
          { tax_name: 'CGST14', tax_amount: 420 },
          { tax_name: 'SGST14', tax_amount: 420 },
          { tax_name: 'Cess12', tax_amount: 360 },
        ];
        i.tax_total = 1200;
        i.total = 4200;
        i.balance = 4200;
      }),
      mapContext({ lookups: l }),
    );
    expect(invoiceOf(r).invoiceTax).toMatchObject({
      total: 1200,
      cgst: 420,
      sgst: 420,
      cessTax: { cess: 360, cessRate: 12 },
      gstTax: { totalGst: 840, totalGstRate: 28 },
    });
    expect(invoiceOf(r).lineItems?.[0]?.lineItemDetails?.taxRate).toBe(40);
  });

  it('given a taxed shipping charge, then its tax is in the invoice tax but on no line', () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => {
        i.shipping_charge = 100;
        i.shipping_charge_tax_id = '1890000000000321';
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 6759 },
          { tax_name: 'SGST9', tax_amount: 6759 },
        ];
        i.tax_total = 13518;
        i.total = 88618;
        i.balance = 48618;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.invoiceTax).toMatchObject({ total: 13518, cgst: 6759, sgst: 6759 });
    expect(inv.lineItems?.map((l) => l.tax?.total)).toEqual([9000, 4500]);
    expect(inv.createInvoiceAdjustments).toEqual([{ name: 'Shipping charge', amount: 100, isPostTax: true }]);
  });

  it("given IGST on an intra-state supply, then it maps (Zoho's tax settings decide) with a warning", () => {
    const r = mapZohoInvoice(
      variant('invoice-inter-state-igst', 'invoice', (i) => (i.place_of_supply = 'KA')),
      mapContext(),
    );
    expect(r.ok && r.warnings).toEqual(['IGST charged on an intra-state supply (KA)']);
  });
});

describe('Zoho invoice mapping: amounts, discounts, status', () => {
  it('given an entity-level discount after tax, then tax is on the undiscounted lines and the discount is post-tax', () => {
    const r = mapZohoInvoice(
      variant('invoice-entity-discount-before-tax', 'invoice', (i) => {
        i.is_discount_before_tax = false;
        // Tax on 10000 and 999.99: 900 + 90.00 (89.9991) per component.
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 990 },
          { tax_name: 'SGST9', tax_amount: 990 },
        ];
        i.tax_total = 1980;
        i.roundoff_value = -0.49;
        i.total = 12129;
        i.balance = 12129;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.discount).toEqual({ amount: 1100, percentage: 10, isPostTax: true });
    expect(inv.lineItems?.map((l) => l.tax?.total)).toEqual([1800, 180]);
  });

  it('given a line whose quantity × rate − discount is not its item_total, then AMOUNTS_INCONSISTENT on that line', () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.line_items[1].quantity = 11)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'line_items.1.item_total' });
  });

  it('given a balance that is not total − paid − credits − write-off, then AMOUNTS_INCONSISTENT; for a void or draft the balance is not checked', () => {
    expect(
      mapZohoInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.balance = 48000)),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, field: 'balance' });
    const draft = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => ((i.status = 'draft'), (i.balance = 0), (i.payment_made = 0))),
      mapContext(),
    );
    expect(invoiceOf(draft).metaData?.sourceStatus).toBe('draft');
  });

  it('given a tax-inclusive invoice, then it is UNSUPPORTED rather than mapped with wrong amounts', () => {
    expect(
      mapZohoInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.is_inclusive_tax = true)),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, reason: 'UNSUPPORTED' });
  });

  it('given a place of supply that is no Indian state, then INVALID_FIELD', () => {
    expect(
      mapZohoInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.place_of_supply = 'XX')),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'place_of_supply' });
  });

  it('given a malformed record, then INVALID_FIELD lists the paths and never the values', () => {
    const r = mapZohoInvoice(
      variant('invoice-intra-state', 'invoice', (i) => ((i.line_items = 'nope'), (i.customer_name = { secret: 'Bharat' }))),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
    expect(!r.ok && r.issues?.join('\n')).toMatch(/invoice\.customer_name.*\n.*invoice\.line_items|invoice\.line_items.*\n.*invoice\.customer_name/s);
    expect(JSON.stringify(r)).not.toContain('Bharat');
  });

  it('given no lookups in the map context, then MISSING_FIELD instead of a guess', () => {
    expect(mapZohoInvoice(variant('invoice-intra-state', 'invoice'), mapContext({ lookups: {} }))).toMatchObject({
      ok: false,
      reason: 'MISSING_FIELD',
      field: 'lookups',
    });
  });
});

describe('Zoho invoice mapping: exchange rates', () => {
  it("given no exchange_rate but Zoho's base-currency total, then the rate is derived from bcy_total (with a warning)", () => {
    const r = mapZohoInvoice(
      variant('invoice-usd-in-inr-org', 'invoice', (i) => delete i.exchange_rate),
      mapContext(),
    );
    expect(invoiceOf(r).exchangeRate).toBe(83.12499962);
    expect(r.ok && r.warnings).toEqual(['exchange_rate derived from base-currency totals: 83.12499962']);
  });

  it('given a rate read in the wrong direction (INR per USD inverted), then FX_SUSPECT says the inverse matches', () => {
    const r = mapZohoInvoice(
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
      mapZohoInvoice(
        variant('invoice-usd-in-inr-org', 'invoice', (i) => (i.exchange_rate = 1)),
        mapContext({ lookups: usdOrg }),
      ),
    ).toMatchObject({
      ok: false,
      reason: 'FX_UNDERIVABLE',
    });
    const inr = invoiceOf(
      mapZohoInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.exchange_rate = 0.012)),
        mapContext({ lookups: usdOrg }),
      ),
    );
    expect(inr.exchangeRate).toBeUndefined();
  });

  it('given a USD billing company, then a USD invoice needs no rate and an INR one is FX_UNDERIVABLE from an INR organisation', () => {
    expect(invoiceOf(mapZohoInvoice(variant('invoice-usd-in-inr-org', 'invoice'), mapContext({ baseCurrency: 'USD' }))).exchangeRate).toBeUndefined();
    expect(mapZohoInvoice(variant('invoice-intra-state', 'invoice'), mapContext({ baseCurrency: 'USD' }))).toMatchObject({
      ok: false,
      reason: 'FX_UNDERIVABLE',
    });
  });
});

describe('Zoho credit note and contact mapping', () => {
  it('given credit applied beyond the credit note total, then AMOUNTS_INCONSISTENT', () => {
    const r = mapZohoCreditNote(
      variant('credit-note-two-invoices', 'creditnote', (c) => (c.invoices[1].amount = 900)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'invoices' });
  });

  it('given a USD credit note with a string exchange rate, then it converts like an invoice', () => {
    const r = mapZohoCreditNote(
      variant('credit-note-two-invoices', 'creditnote', (c) => {
        c.currency_code = 'USD';
        c.exchange_rate = '83.250';
        c.bcy_total = 196470;
      }),
      mapContext(),
    );
    expect(r.ok && r.value.kind === 'credit-note' && r.value.creditNote.exchangeRate).toBe(83.25);
  });

  it('given an individual overseas customer without GSTIN, then no tax identifiers, no Indian state code, and the country code from the name', () => {
    const r = mapZohoContact(
      variant('contact-business', 'contact', (c) => {
        c.gst_no = '';
        c.gst_treatment = 'overseas';
        c.customer_sub_type = 'individual';
        c.company_name = '';
        c.status = 'inactive';
        c.billing_address = {
          address: '12 Rue de la République',
          city: 'Lyon',
          state: 'Auvergne-Rhône-Alpes',
          zip: '69002',
          country: 'France',
          state_code: '',
        };
        c.contact_persons = [];
      }),
      mapContext(),
    );
    if (!r.ok || r.value.kind !== 'customer') throw new Error('not mapped');
    const c = r.value.customer;
    expect(c.taxIdentifiers).toBeUndefined();
    expect(c.stateCode).toBeUndefined();
    expect(c.countryCode).toBe('FR');
    expect(c.customerStatus).toBe('INACTIVE');
    expect(c.alias).toBeUndefined();
    expect(c.primaryEmail).toBe('anil@kaveriprint.example');
  });
});
