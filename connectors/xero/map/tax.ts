import {
  Money,
  roundMoney,
  splitByComponentRates,
  type Decimal,
  type TaxComponent,
  type TaxKind,
} from '../../../src/mapping/index.js';
import type { XeroTaxRateInfo } from '../streams/lookups.js';

/**
 * A line's TaxAmount → classified tax components.
 *
 * Xero has no GST fields: a tax rate is a name, an effective rate and TaxComponents (Name, Rate,
 * IsCompound; https://developer.xero.com/documentation/api/accounting/taxrates), so an Indian
 * organisation models "GST 18%" as one TaxRate with two TaxComponents (CGST 9, SGST 9), and the line's
 * TaxAmount is the combined figure. So:
 * - components named CGST + SGST (or UTGST), optionally with IGST/cess and no compound component:
 *   split TaxAmount in proportion to the component rates, exact to the paisa (CGST gets an odd paisa);
 * - a single IGST component: all of it is IGST;
 * - any other rate (VAT, Australian GST, custom): `otherTaxes`, named by the TaxRate's name, at its rate;
 * - a zero rate with zero tax (exempt, zero-rated exports, NONE): no component at all;
 * - a TaxType not in GET /TaxRates: `otherTaxes` under the code, with the rate derived from the amounts.
 * Component names are the only classification Xero offers; they are matched as whole words
 * (`\bCGST\b`), never parsed for rates.
 */
function kindOf(name: string): TaxKind {
  if (/\bCGST\b/i.test(name)) return 'cgst';
  if (/\bSGST\b/i.test(name)) return 'sgst';
  if (/\bUTGST\b/i.test(name)) return 'utgst';
  if (/\bIGST\b/i.test(name)) return 'igst';
  if (/\bCESS\b/i.test(name)) return 'cess';
  return 'other';
}

export function lineTaxComponents(input: {
  taxType: string | null | undefined;
  taxAmount: Decimal;
  lineNet: Decimal;
  rate: XeroTaxRateInfo | undefined;
  currency: string;
}): { components: TaxComponent[]; ratePercent: Decimal; warning?: string } {
  const { taxType, taxAmount, lineNet, rate, currency } = input;
  if (!rate) {
    const derived = lineNet.isZero() ? new Money(0) : taxAmount.times(100).div(lineNet).toDecimalPlaces(4);
    if (taxAmount.isZero()) return { components: [], ratePercent: new Money(0) };
    const name = taxType?.trim() || 'Tax';
    return {
      components: [{ kind: 'other', name, amount: roundMoney(taxAmount, currency), rate: derived }],
      ratePercent: derived,
      warning: `TaxType ${name} is not in the organisation's tax rates; rate derived from the amounts`,
    };
  }
  const ratePercent = new Money(rate.rate);
  const parts = rate.components.map((c) => ({
    kind: kindOf(c.name),
    rate: new Money(c.rate),
    name: c.name,
    compound: c.compound,
  }));
  const kinds = new Set(parts.map((p) => p.kind));
  const gstOnly = parts.length > 0 && parts.every((p) => p.kind !== 'other' && !p.compound);
  const intra = kinds.has('cgst') && (kinds.has('sgst') || kinds.has('utgst'));
  if (
    gstOnly &&
    (intra || (kinds.size === 1 && kinds.has('igst')) || (kinds.has('igst') && kinds.has('cess') && kinds.size === 2))
  ) {
    return {
      components: splitByComponentRates(
        taxAmount,
        parts.map(({ kind, rate: r, name }) => ({ kind, rate: r, name })),
        currency,
      ),
      ratePercent,
    };
  }
  if (taxAmount.isZero() && ratePercent.isZero()) return { components: [], ratePercent };
  return {
    components: [{ kind: 'other', name: rate.name, amount: roundMoney(taxAmount, currency), rate: ratePercent }],
    ratePercent,
  };
}
