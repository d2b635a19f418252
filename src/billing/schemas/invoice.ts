import { z } from 'zod';
import { AcceptanceStatus, OriginSource, RoundingDirection, RoundingType } from './enums.js';
import { CustomerDetails } from './customer.js';
import { DateObject, FlatObject, IsoDate, Num, ServiceTimestamp } from './primitives.js';
import { Discount, Tax } from './tax.js';

export const LineItemDetails = z.strictObject({
  name: z.string().min(1),
  taxRate: Num,
  pricePerItem: Num.default(0),
  hsnOrSacCode: z.string().optional(),
  description: z.string().optional(),
  companyId: z.string().optional(),
  erpId: z.string().optional(),
  lineItemId: z.string().optional(),
});
export type LineItemDetails = z.infer<typeof LineItemDetails>;

export const LineItem = z.strictObject({
  lineItemDetails: LineItemDetails.optional(),
  subTotal: Num.default(0),
  total: Num.default(0),
  tax: Tax.optional(),
  discount: Discount.optional(),
  quantity: Num.default(1),
});
export type LineItem = z.infer<typeof LineItem>;

export const RoundingConfig = z.strictObject({
  type: RoundingType,
  roundingDirection: RoundingDirection,
  decimalPlace: z.number().int().default(2),
  isPostTax: z.boolean().default(true),
});
export type RoundingConfig = z.infer<typeof RoundingConfig>;

export const Adjustment = z.strictObject({
  isPostTax: z.boolean().default(true),
  amount: Num.optional(),
  name: z.string().optional(),
  reference: z.string().optional(),
});
export type Adjustment = z.infer<typeof Adjustment>;

/** The invoice input model (endpoint 1), required fields and defaults as the interface's table says. */
export const InvoiceInput = z.strictObject({
  invoiceId: z.string().min(1),
  invoiceNumber: z.string().min(1),
  invoiceDate: DateObject.optional(),
  invoiceDueDate: DateObject.optional(),
  promiseToPayDate: DateObject.optional(),
  invoiceSubtotal: Num,
  invoiceTax: Tax.optional(),
  invoiceAdjustedAmount: Num.default(0),
  invoicePaidAmount: Num.default(0),
  discount: Discount.optional(),
  discounts: z.array(Discount).optional(),
  discountSplitByWeight: z.boolean().default(true),
  invoiceTotal: Num.default(0),
  invoiceAcceptanceStatus: AcceptanceStatus.optional(),
  customerId: z.string().optional(),
  customerDetails: CustomerDetails.optional(),
  customerName: z.string().optional(),
  invoiceType: z.string().optional(),
  supplyStateCode: z.string().optional(),
  placeOfSupply: z.string().optional(),
  invoiceCurrency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')
    .default('INR'),
  invoiceCurrencyId: z.string().optional(),
  exchangeRate: Num.positive().optional(),
  lineItems: z.array(LineItem).optional(),
  referenceType: z.string().optional(),
  referenceId: z.string().optional(),
  referenceText: z.string().optional(),
  eInvoiceQrCode: z.string().optional(),
  irnNumber: z.string().optional(),
  companyId: z.string().optional(),
  tags: FlatObject.optional(),
  metaData: FlatObject.optional(),
  sort: z.string().optional(),
  invoiceRoundingConfig: RoundingConfig.optional(),
  prepaidAmount: Num.optional(),
  createInvoiceAdjustments: z.array(Adjustment).optional(),
  erpId: z.string().optional(),
  invoiceOriginSource: OriginSource.default('OTHER'),
});
export type InvoiceInput = z.infer<typeof InvoiceInput>;
/** What a caller may send (defaults not yet applied). */
export type InvoiceInputDraft = z.input<typeof InvoiceInput>;

/** Body of POST /external/invoice/upsert: one property, `invoice`. */
export const InvoiceUpsertBody = z.strictObject({ invoice: InvoiceInput });
export type InvoiceUpsertBody = z.infer<typeof InvoiceUpsertBody>;

const Str = z.string().nullish();
const Obj = z.record(z.string(), z.unknown()).nullish();

/** Invoice record, as the invoice listing returns it. Tolerant reader: unknown keys pass. */
export const InvoiceRecord = z.looseObject({
  id: z.string(),
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  invoiceStatus: Str,
  paymentStatus: Str,
  invoiceDate: IsoDate.nullish(),
  invoiceDueDate: IsoDate.nullish(),
  promiseToPayDate: IsoDate.nullish(),
  invoiceSubtotal: Num,
  invoiceTotal: Num,
  invoicePaidAmount: Num,
  invoiceAdjustedAmount: Num,
  invoiceOutstandingAmount: Num,
  writtenOffAmount: Num.nullish(),
  roundOffAmount: Num.nullish(),
  creditNoteAdjustedAmount: Num.nullish(),
  invoiceTax: Obj,
  discount: Obj,
  buyerId: Str,
  customerName: Str,
  lineItems: z.array(z.record(z.string(), z.unknown())).nullish(),
  referenceType: Str,
  referenceId: Str,
  referenceText: Str,
  createdAt: ServiceTimestamp,
  updatedAt: ServiceTimestamp,
  lifecycleStatus: z.string(),
  invoiceOriginSource: OriginSource,
  createdBy: z.looseObject({ userId: Str, userName: Str }).nullish(),
  invoiceAmountAdjustments: z.array(z.record(z.string(), z.unknown())).nullish(),
  irnNumber: Str,
  placeOfSupply: Str,
  invoiceCurrency: Str,
  erpId: Str,
  invoiceTds: Obj,
  invoiceBillingAddress: Obj,
  invoiceShippingAddress: Obj,
  invoiceSellerDetails: Obj,
  invoiceGeneralTerms: Str,
  invoicePaymentTerms: Str,
  billingPeriod: z.looseObject({ startDate: IsoDate.nullish(), endDate: IsoDate.nullish() }).nullish(),
  einvoiceAcknowledgementNumber: Num.nullish(),
  einvoiceAcknowledgedAt: Str,
  buyerGstin: Str,
});
export type InvoiceRecord = z.infer<typeof InvoiceRecord>;
