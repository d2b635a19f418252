import { z } from 'zod';
import { OriginSource } from './enums.js';
import { CustomerDetails } from './customer.js';
import { DateObject, FlatObject, Num } from './primitives.js';
import { LineItem } from './invoice.js';
import { Tax } from './tax.js';

/** One invoice a credit note is applied to: by id, by number, or both. */
export const CreditNoteApplication = z
  .strictObject({
    invoiceId: z.string().min(1).optional(),
    invoiceNumber: z.string().min(1).optional(),
    amount: Num.nonnegative(),
  })
  .refine((a) => a.invoiceId !== undefined || a.invoiceNumber !== undefined, {
    message: 'an application needs invoiceId or invoiceNumber',
  });
export type CreditNoteApplication = z.infer<typeof CreditNoteApplication>;

/**
 * Our decision (the interface shows no fields for endpoint 2): a credit note shaped like the invoice input.
 * See docs/interface-assumptions.md.
 */
export const CreditNoteInput = z.strictObject({
  creditNoteId: z.string().min(1),
  creditNoteNumber: z.string().min(1),
  creditNoteDate: DateObject.optional(),
  creditNoteSubtotal: Num,
  creditNoteTax: Tax.optional(),
  creditNoteTotal: Num.default(0),
  creditNoteRemainingAmount: Num.optional(),
  creditNoteCurrency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')
    .default('INR'),
  exchangeRate: Num.positive().optional(),
  lineItems: z.array(LineItem).optional(),
  customerId: z.string().optional(),
  customerName: z.string().optional(),
  customerDetails: CustomerDetails.optional(),
  appliedToInvoices: z.array(CreditNoteApplication).optional(),
  placeOfSupply: z.string().optional(),
  reason: z.string().optional(),
  erpId: z.string().optional(),
  creditNoteOriginSource: OriginSource.default('OTHER'),
  tags: FlatObject.optional(),
  metaData: FlatObject.optional(),
});
export type CreditNoteInput = z.infer<typeof CreditNoteInput>;
export type CreditNoteInputDraft = z.input<typeof CreditNoteInput>;

/** Body of POST /external/creditNotes/upsert. */
export const CreditNoteUpsertBody = z.strictObject({ creditNote: CreditNoteInput });
export type CreditNoteUpsertBody = z.infer<typeof CreditNoteUpsertBody>;
