/**
 * The amounts computeDocumentAmounts derives for an invoice or credit note, in integer minor units.
 * A leaf file: the stored records carry them and the computation reads those records' terms, so
 * neither imports the other for the shape.
 */
export interface ComponentAmount {
  tax_id: string;
  tax_name: string;
  amountMinor: number;
}

export interface LineAmounts {
  grossMinor: number;
  discountMinor: number;
  itemTotalMinor: number;
  entityDiscountShareMinor: number;
  taxableMinor: number;
  taxes: ComponentAmount[];
}

export interface DocumentAmounts {
  lines: LineAmounts[];
  subTotalMinor: number;
  /** Σ line discounts (item_level). */
  lineDiscountMinor: number;
  /** The entity-level discount (0 for item_level). */
  entityDiscountMinor: number;
  taxes: ComponentAmount[];
  taxTotalMinor: number;
  shippingMinor: number;
  adjustmentMinor: number;
  totalMinor: number;
}
