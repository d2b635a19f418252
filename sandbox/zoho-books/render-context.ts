import type { DocumentAmounts } from './document-amounts.js';
import { convertMinor, toAmount } from '../kit/minor-units.js';
import type {
  AddressRecord,
  ContactRecord,
  CurrencyCode,
  CurrencyRecord,
  Discount,
  LineRecord,
  OrganizationRecord,
  TdsRecord,
} from './store-records.js';
import { lineTdsMinor } from './generate-india.js';
import type { TaxCatalog } from './tax-catalog.js';
import { formatZohoTimestamp } from './zoho-timestamp.js';

/** What the wire renderers read from the store. */
export interface RenderContext {
  organization: OrganizationRecord;
  taxes: TaxCatalog;
  salesAccountId: string;
  currency(code: CurrencyCode): CurrencyRecord;
  contact(id: string): ContactRecord | undefined;
  creditsAppliedMinor(invoiceId: string): number;
}

export function timestamp(ctx: RenderContext, ms: number): string {
  return formatZohoTimestamp(ms, ctx.organization.offsetMinutes);
}

export function address(a: AddressRecord): Record<string, string> {
  return {
    attention: a.attention,
    address: a.address,
    street2: a.street2,
    city: a.city,
    state: a.state,
    state_code: a.state_code,
    zip: a.zip,
    country: a.country,
    fax: a.fax,
    phone: a.phone,
  };
}

/**
 * A discount as entered: a percentage prints as a string ("12.50%"), a fixed amount as a number. The
 * computed money is always in the `discount_amount` / `discount_total` numbers.
 */
export function discountValue(discount: Discount | null): number | string {
  if (!discount) return 0;
  return discount.kind === 'percent' ? `${(discount.basisPoints / 100).toFixed(2)}%` : toAmount(discount.minor);
}

/** Invoice-currency exchange rate (base units per one document unit) as Zoho prints it: 1 or e.g. 83.125. */
export function exchangeRate(rateMicro: number): number {
  return rateMicro / 1_000_000;
}

/** Detail `line_items[]` (lists never carry them). */
export function renderLines(
  ctx: RenderContext,
  lines: readonly LineRecord[],
  amounts: DocumentAmounts,
  rateMicro: number,
  itemLevel: boolean,
  tds?: TdsRecord,
): Record<string, unknown>[] {
  return lines.map((line, i) => {
    const a = amounts.lines[i];
    const tax = line.tax_id ? ctx.taxes.byId(line.tax_id) : undefined;
    // India: the TDS the customer deducts on this line (invoices only).
    const lineTds = tds
      ? {
          tds_tax_id: tds.tax_id,
          tds_tax_name: tds.tax_name,
          tds_tax_percentage: tds.basisPoints / 100,
          tds_tax_amount: toAmount(lineTdsMinor(a?.itemTotalMinor ?? 0, tds.basisPoints)),
        }
      : {};
    return {
      line_item_id: line.line_item_id,
      item_id: line.item_id,
      name: line.name,
      description: line.description,
      item_order: line.item_order,
      hsn_or_sac: line.hsn_or_sac,
      product_type: line.product_type,
      quantity: line.quantityHundredths / 100,
      unit: line.unit,
      rate: toAmount(line.rateMinor),
      bcy_rate: toAmount(convertMinor(line.rateMinor, rateMicro, 'micro')),
      discount: itemLevel ? discountValue(line.discount) : 0,
      discount_amount: toAmount(a?.discountMinor ?? 0),
      tax_id: line.tax_id,
      tax_name: tax?.tax_name ?? '',
      tax_type: tax?.tax_type ?? '',
      tax_percentage: tax?.tax_percentage ?? 0,
      item_total: toAmount(a?.itemTotalMinor ?? 0),
      ...lineTds,
      tags: [],
      project_id: '',
      location_id: '',
      header_name: '',
    };
  });
}

/** Invoice-level `taxes[]`: one `{tax_name, tax_amount}` per component (CGST9, SGST9, IGST18, Cess12…). */
export function renderTaxes(amounts: DocumentAmounts): { tax_name: string; tax_amount: number }[] {
  return amounts.taxes.map((t) => ({ tax_name: t.tax_name, tax_amount: toAmount(t.amountMinor) }));
}
