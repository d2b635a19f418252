import type { LineItem } from '../billing/schemas/invoice.js';
import type { Decimal } from './money.js';
import { mapOk, type MapResult } from './quarantine-reason.js';

/**
 * Text lines, one rule for every connector (docs/interface-assumptions.md, "Text lines"). Each vendor lets
 * a document carry a row of text between its priced lines: Xero "a line item with just a description (i.e.
 * no unit amount or quantity)", QuickBooks' `DescriptionOnly` lines, a Zoho Books line without an item or
 * a rate. Such a row adds nothing to the document's money, so:
 *
 * - A line is text when it carries no money — every money figure it states (its amount, unit price, tax,
 *   discount) is absent or zero — and it names no item. A line that names an item is a product even at
 *   zero ("2 × Sample pack @ 0.00"): it stays a priced line with its quantity. A line with a non-zero unit
 *   price is priced even if its amount is zero (a quantity of 0 is still a statement about the item).
 * - A text line is carried, not skipped: the billing line item is the only place of the input that the
 *   service shows back (the invoice listing returns `lineItems`; it does not document `metaData`), and a
 *   dropped row would change what the document says. It is sent as a line item with the text as its name,
 *   quantity 0, price 0, subtotal 0, total 0, tax rate 0 and no tax — "0 × 0.00" reads as nothing sold,
 *   where quantity 1 would read as one free item — so every document sum is unchanged and the totals checks
 *   (src/mapping/checks.ts) hold with text lines present.
 * - A line with neither money nor text has nothing to carry: it is left out, with a warning.
 */
export interface LineFigures {
  /** The vendor's line amount, parsed; undefined when the vendor does not state one. */
  amount?: Decimal;
  unitPrice?: Decimal;
  tax?: Decimal;
  discount?: Decimal;
  /** The line refers to a catalogue item (Xero ItemCode, QuickBooks ItemRef, Zoho item_id). */
  namesItem: boolean;
}

const isMoney = (d: Decimal | undefined): boolean => d !== undefined && !d.isZero();

/** True when the line carries no money and names no item (the rule above). */
export function isTextLine(line: LineFigures): boolean {
  return (
    !line.namesItem &&
    !isMoney(line.amount) &&
    !isMoney(line.unitPrice) &&
    !isMoney(line.tax) &&
    !isMoney(line.discount)
  );
}

/**
 * The billing line item of a text line: the text as its name and nothing else that could be read as money.
 * Blank text gives undefined and a warning naming `field` (the vendor's line), never the text itself.
 */
export function textLineItem(
  text: string | null | undefined,
  field: string,
  lineItemId?: string,
): MapResult<LineItem | undefined> {
  const name = text?.trim();
  if (!name) return mapOk(undefined, [`${field}: a line with neither money nor text; left out`]);
  return mapOk({
    lineItemDetails: { name, taxRate: 0, pricePerItem: 0, ...(lineItemId ? { lineItemId } : {}) },
    quantity: 0,
    subTotal: 0,
    total: 0,
  });
}
