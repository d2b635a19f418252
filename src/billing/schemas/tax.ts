import { z } from 'zod';
import { Num } from './primitives.js';

export const GstTax = z.strictObject({
  totalGst: Num.default(0),
  totalGstRate: Num.default(0),
  cgst: Num.default(0),
  cgstRate: Num.default(0),
  sgst: Num.default(0),
  sgstRate: Num.default(0),
  igst: Num.default(0),
  igstRate: Num.default(0),
});
export type GstTax = z.infer<typeof GstTax>;

export const CessTax = z.strictObject({ cess: Num.default(0), cessRate: Num.default(0) });
export const ServiceTax = z.strictObject({ serviceTax: Num.default(0), serviceTaxRate: Num.default(0) });
export const TdsTax = z.strictObject({ tds: Num.default(0), tdsRate: Num.default(0) });
export const OtherTax = z.strictObject({
  name: z.string().min(1),
  genericTax: Num.default(0),
  genericTaxRate: Num.default(0),
});

/** Used for invoiceTax and for each line item's tax. */
export const Tax = z.strictObject({
  total: Num.default(0),
  gstTax: GstTax.optional(),
  cessTax: CessTax.optional(),
  serviceTax: ServiceTax.optional(),
  tdsTax: TdsTax.optional(),
  otherTaxes: z.array(OtherTax).optional(),
  cgst: Num.optional(),
  sgst: Num.optional(),
  igst: Num.optional(),
  tds: Num.default(0),
});
export type Tax = z.infer<typeof Tax>;
export type TaxInput = z.input<typeof Tax>;

/** Used for discount, each element of discounts, and a line item's discount. */
export const Discount = z.strictObject({
  amount: Num.default(0),
  percentage: Num.default(0),
  isPostTax: z.boolean().default(false),
});
export type Discount = z.infer<typeof Discount>;
