/**
 * Tax rates of the sandbox organisations, shaped like `GET /TaxRates`.
 * Xero has no GST-specific fields: an Indian CGST+SGST rate is one TaxRate with two TaxComponents, and
 * custom rates get TaxType codes TAX001, TAX002, ... (system rates keep names like OUTPUT, EXEMPTEXPORT).
 */
export interface XeroTaxComponent {
  Name: string;
  Rate: number;
  IsCompound: boolean;
  IsNonRecoverable: boolean;
}

export interface XeroTaxRate {
  Name: string;
  TaxType: string;
  ReportTaxType: string;
  CanApplyToAssets: boolean;
  CanApplyToEquity: boolean;
  CanApplyToExpenses: boolean;
  CanApplyToLiabilities: boolean;
  CanApplyToRevenue: boolean;
  DisplayTaxRate: number;
  EffectiveRate: number;
  Status: 'ACTIVE' | 'DELETED' | 'ARCHIVED';
  TaxComponents: XeroTaxComponent[];
}

function rate(TaxType: string, Name: string, components: Array<[string, number]>, report = 'OUTPUT'): XeroTaxRate {
  const total = components.reduce((s, [, r]) => s + r * 100, 0) / 100;
  return {
    Name,
    TaxType,
    ReportTaxType: report,
    CanApplyToAssets: true,
    CanApplyToEquity: true,
    CanApplyToExpenses: true,
    CanApplyToLiabilities: true,
    CanApplyToRevenue: true,
    DisplayTaxRate: total,
    EffectiveRate: total,
    Status: 'ACTIVE',
    TaxComponents: components.map(([n, r]) => ({ Name: n, Rate: r, IsCompound: false, IsNonRecoverable: false })),
  };
}

/** An Indian organisation (INR): intra-state GST as CGST+SGST components, IGST, zero-rated exports. */
export const INDIA_TAX_RATES: readonly XeroTaxRate[] = [
  rate('TAX001', 'GST 18%', [
    ['CGST', 9],
    ['SGST', 9],
  ]),
  rate('TAX002', 'GST 5%', [
    ['CGST', 2.5],
    ['SGST', 2.5],
  ]),
  rate('TAX003', 'GST 12%', [
    ['CGST', 6],
    ['SGST', 6],
  ]),
  rate('TAX004', 'IGST 18%', [['IGST', 18]]),
  rate('EXEMPTEXPORT', 'Zero Rated Exports', [['Zero Rated', 0]], 'EXEMPTEXPORT'),
  rate('NONE', 'No GST', [['No GST', 0]], 'NONE'),
];

/** An Australian organisation (AUD): GST 10 % as one component. */
export const AUSTRALIA_TAX_RATES: readonly XeroTaxRate[] = [
  rate('OUTPUT', 'GST on Income', [['GST', 10]]),
  rate('EXEMPTOUTPUT', 'GST Free Income', [['GST', 0]], 'EXEMPTOUTPUT'),
  rate('EXEMPTEXPORT', 'GST Free Exports', [['GST', 0]], 'EXEMPTEXPORT'),
  rate('BASEXCLUDED', 'BAS Excluded', [['BAS Excluded', 0]], 'BASEXCLUDED'),
];
