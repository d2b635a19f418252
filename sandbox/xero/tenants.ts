import { AUSTRALIA_TAX_RATES, INDIA_TAX_RATES, type XeroTaxRate } from './tax-rates.js';

/**
 * The sandbox's organisations (Xero "tenants"). One token reaches all of them; each call picks one with
 * the `xero-tenant-id` header. The first has the billing company's base currency (INR) and invoices some
 * customers in USD/EUR/GBP; the second is an Australian organisation (AUD base), so its CurrencyRate is
 * relative to AUD and a billing company in INR cannot use it (the connector answers FX_UNDERIVABLE).
 */
export interface TenantProfile {
  tenantId: string;
  tenantName: string;
  shortCode: string;
  baseCurrency: string;
  countryCode: string;
  /** Invoice prefix, so numbers differ between organisations. */
  invoicePrefix: string;
  creditNotePrefix: string;
  taxRates: readonly XeroTaxRate[];
  /** Tax types used on domestic lines, with weights. */
  domesticTaxTypes: ReadonlyArray<readonly [string, number]>;
  /** Tax type of export lines (foreign-currency invoices). */
  exportTaxType: string;
  /**
   * Foreign currencies invoiced, with the TRUE rate as base units per one foreign unit, as a decimal
   * string. What Xero puts in CurrencyRate is derived from it by the emulator's rate convention.
   */
  foreignCurrencies: ReadonlyArray<readonly [currency: string, basePerForeign: string]>;
}

export const INDIA_TENANT_ID = '6f1d2a4e-8c3b-4e5a-9b7c-1a2b3c4d5e01';
export const AUSTRALIA_TENANT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c02';

export const DEFAULT_TENANTS: readonly TenantProfile[] = [
  {
    tenantId: INDIA_TENANT_ID,
    tenantName: 'Bharat Tooling Demo (India)',
    shortCode: '!bT4in',
    baseCurrency: 'INR',
    countryCode: 'IN',
    invoicePrefix: 'INV-',
    creditNotePrefix: 'CN-',
    taxRates: INDIA_TAX_RATES,
    domesticTaxTypes: [
      ['TAX001', 6],
      ['TAX002', 2],
      ['TAX003', 1],
      ['TAX004', 2],
      ['NONE', 1],
    ],
    exportTaxType: 'EXEMPTEXPORT',
    // 1 USD = 83.50 INR: Xero's CurrencyRate is then 1/83.5 = 0.011976 USD per INR (6 dp).
    foreignCurrencies: [
      ['USD', '83.5'],
      ['EUR', '91'],
      ['GBP', '106.25'],
    ],
  },
  {
    tenantId: AUSTRALIA_TENANT_ID,
    tenantName: 'Southern Cross Trading Pty Ltd (Australia)',
    shortCode: '!sC9au',
    baseCurrency: 'AUD',
    countryCode: 'AU',
    invoicePrefix: 'AU-INV-',
    creditNotePrefix: 'AU-CN-',
    taxRates: AUSTRALIA_TAX_RATES,
    domesticTaxTypes: [
      ['OUTPUT', 6],
      ['EXEMPTOUTPUT', 1],
      ['BASEXCLUDED', 1],
    ],
    exportTaxType: 'EXEMPTEXPORT',
    // 1 USD = 1.538462 AUD (Xero shows 0.65 USD per AUD); 1 INR = 0.018433 AUD (54.25 INR per AUD).
    foreignCurrencies: [
      ['USD', '1.538462'],
      ['INR', '0.018433'],
      ['NZD', '0.925926'],
    ],
  },
];

export const NEW_ZEALAND_TENANT_ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b03';

/**
 * A New Zealand organisation (NZD base), not among the defaults: pass it in `tenants` to check what a
 * connector takes from the organisation (CountryCode NZ, BaseCurrency NZD). Its tax rates and generated
 * places are the Australian ones: only the organisation's own settings matter to what it is for.
 */
export const NEW_ZEALAND_TENANT: TenantProfile = {
  tenantId: NEW_ZEALAND_TENANT_ID,
  tenantName: 'Kowhai Design Ltd (New Zealand)',
  shortCode: '!kD7nz',
  baseCurrency: 'NZD',
  countryCode: 'NZ',
  invoicePrefix: 'NZ-INV-',
  creditNotePrefix: 'NZ-CN-',
  taxRates: AUSTRALIA_TAX_RATES,
  domesticTaxTypes: [['OUTPUT', 1]],
  exportTaxType: 'EXEMPTEXPORT',
  foreignCurrencies: [['USD', '1.666667']],
};
