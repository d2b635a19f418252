import type { Decimal } from '../../../src/mapping/index.js';
import type { Discount } from '../../../src/billing/schemas/index.js';

/** An item line of a QBO document as lines.ts reads it (its money exact), before tax.ts spreads the document's tax over it. */
export interface ItemLine {
  /** Where QBO has the line ("Line.2", "Line.3.GroupLineDetail.Line.0"), for messages. */
  field: string;
  lineId?: string;
  itemId?: string;
  name: string;
  description?: string;
  quantity: Decimal;
  unitPrice: Decimal;
  amount: Decimal;
  taxCodeId?: string;
  /** The line's own discount (DiscountRate/DiscountAmt), already taken off Amount. */
  discount?: Discount;
  /** `SalesItemLineDetail.TaxInclusiveAmt` (GB, AU, CA, IN): the line's total including tax, checked in totals.ts. */
  taxInclusiveAmount?: Decimal;
}
