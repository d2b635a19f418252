import {
  type Decimal,
  dec,
  formatMoney,
  mapFail,
  type MapFailure,
  mapOk,
  type MapResult,
  minorUnit,
  parseAmount,
  parseOptionalAmount,
  ZERO,
} from '../../../src/mapping/index.js';
import { QboLine } from '../schemas.js';

/**
 * QBO `Line[]` read into what the billing body needs (reference §2.4, trap 14). `DetailType` decides:
 * - `SalesItemLineDetail` → an item line: quantity `Qty`, unit price `UnitPrice`, name = `ItemRef.name`
 *   (else the line's Description), amount = the line's `Amount` (net of tax; the authoritative money).
 * - `DiscountLineDetail` → a document-level discount (`Amount`, `PercentBased`/`DiscountPercent`).
 * - `SubTotalLineDetail` → skipped as an item (QBO's auto-generated subtotal); its Amount is kept only to
 *   check the item lines add up to it.
 * - `DescriptionOnly` → skipped: a text row with no money. If one ever carries a non-zero Amount it is
 *   still skipped, with a warning, and the total check decides whether the document adds up without it.
 * - `GroupLineDetail` → its nested `Line[]` (bundles) are read as if they were top-level lines.
 * - anything else with money on it → UNSUPPORTED (we would rather not guess what it means).
 */
export interface ItemLine {
  lineId?: string;
  itemId?: string;
  name: string;
  description?: string;
  quantity: Decimal;
  unitPrice: Decimal;
  amount: Decimal;
  taxCodeId?: string;
}

export interface DiscountLine {
  amount: Decimal;
  /** Set when PercentBased: 10 means 10 %. */
  percent?: Decimal;
}

export interface ReadLines {
  items: ItemLine[];
  discounts: DiscountLine[];
  /** Amount of the SubTotalLineDetail line, when there is exactly one. */
  subtotalLine?: Decimal;
  warnings: string[];
}

export function readLines(raw: readonly unknown[], currency: string): MapResult<ReadLines> {
  const out: ReadLines = { items: [], discounts: [], warnings: [] };
  const subtotals: Decimal[] = [];
  const failure = walk(raw, 'Line', currency, out, subtotals);
  if (failure) return failure;
  if (subtotals.length === 1) out.subtotalLine = subtotals[0];
  return mapOk(out);
}

function walk(lines: readonly unknown[], path: string, currency: string, out: ReadLines, subtotals: Decimal[]): MapFailure | undefined {
  for (const [i, rawLine] of lines.entries()) {
    const field = `${path}.${i}`;
    const parsed = QboLine.safeParse(rawLine);
    if (!parsed.success) return mapFail('INVALID_FIELD', `${field} is not a QuickBooks line`, { field });
    const line = parsed.data;
    switch (line.DetailType) {
      case 'SalesItemLineDetail': {
        const item = itemLine(line, field, currency);
        if (!item.ok) return item;
        out.items.push(item.value);
        break;
      }
      case 'DiscountLineDetail': {
        const amount = parseAmount(line.Amount, `${field}.Amount`);
        if (!amount.ok) return amount;
        const d = line.DiscountLineDetail;
        const percent = d?.PercentBased ? parseOptionalAmount(d.DiscountPercent, `${field}.DiscountLineDetail.DiscountPercent`) : mapOk(undefined);
        if (!percent.ok) return percent;
        out.discounts.push({ amount: amount.value.abs(), ...(percent.value === undefined ? {} : { percent: percent.value }) });
        break;
      }
      case 'SubTotalLineDetail': {
        const amount = parseOptionalAmount(line.Amount, `${field}.Amount`);
        if (!amount.ok) return amount;
        if (amount.value !== undefined) subtotals.push(amount.value);
        break;
      }
      case 'DescriptionOnly': {
        const amount = parseOptionalAmount(line.Amount, `${field}.Amount`);
        if (amount.ok && amount.value && !amount.value.isZero()) {
          out.warnings.push(`${field}: DescriptionOnly line with amount ${formatMoney(amount.value, currency)} skipped`);
        }
        break;
      }
      case 'GroupLineDetail': {
        const failure = walk(line.GroupLineDetail?.Line ?? [], `${field}.GroupLineDetail.Line`, currency, out, subtotals);
        if (failure) return failure;
        break;
      }
      default: {
        const amount = parseOptionalAmount(line.Amount, `${field}.Amount`);
        if (amount.ok && amount.value && !amount.value.isZero()) {
          return mapFail('UNSUPPORTED', `${field}: line type ${line.DetailType} with an amount is not mapped`, { field });
        }
      }
    }
  }
  return undefined;
}

function itemLine(line: QboLine, field: string, currency: string): MapResult<ItemLine> {
  const d = line.SalesItemLineDetail ?? {};
  const amount = parseAmount(line.Amount, `${field}.Amount`);
  if (!amount.ok) return amount;
  const qtyRaw = parseOptionalAmount(d.Qty, `${field}.SalesItemLineDetail.Qty`);
  if (!qtyRaw.ok) return qtyRaw;
  const priceRaw = parseOptionalAmount(d.UnitPrice, `${field}.SalesItemLineDetail.UnitPrice`);
  if (!priceRaw.ok) return priceRaw;
  // QBO may omit Qty or UnitPrice (amount-only lines): derive the missing one from the amount.
  let quantity = qtyRaw.value;
  let unitPrice = priceRaw.value;
  if (quantity === undefined && unitPrice === undefined) {
    quantity = dec(1);
    unitPrice = amount.value;
  } else if (quantity === undefined) {
    quantity = unitPrice!.isZero() ? dec(1) : amount.value.div(unitPrice!);
  } else if (unitPrice === undefined) {
    unitPrice = quantity.isZero() ? ZERO : amount.value.div(quantity);
  }
  // Qty × UnitPrice must be the amount (QBO keeps UnitPrice to 5 decimals: allow one minor unit).
  const gross = quantity.times(unitPrice!);
  if (gross.minus(amount.value).abs().gt(minorUnit(currency)) && !hasLineDiscount(d)) {
    return mapFail(
      'AMOUNTS_INCONSISTENT',
      `${field}: Qty ${quantity.toFixed()} × UnitPrice ${unitPrice!.toFixed()} = ${formatMoney(gross, currency)} but Amount is ${formatMoney(amount.value, currency)} ${currency}`,
      { field: `${field}.Amount` },
    );
  }
  const name = (d.ItemRef?.name ?? line.Description ?? '').trim() || 'Item';
  const item: ItemLine = { name, quantity, unitPrice: unitPrice!, amount: amount.value };
  if (line.Id !== undefined) item.lineId = line.Id;
  if (d.ItemRef?.value !== undefined) item.itemId = d.ItemRef.value;
  if (line.Description?.trim()) item.description = line.Description.trim();
  if (d.TaxCodeRef?.value !== undefined) item.taxCodeId = d.TaxCodeRef.value;
  return mapOk(item);
}

/** Regions with line discounts (DiscountRate/DiscountAmt) put the discounted figure in Amount. */
function hasLineDiscount(d: { DiscountRate?: unknown; DiscountAmt?: unknown }): boolean {
  const nonZero = (v: unknown) => v !== undefined && v !== null && Number(v) !== 0;
  return nonZero(d.DiscountRate) || nonZero(d.DiscountAmt);
}
