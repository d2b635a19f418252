import { z } from 'zod';
import { CreditNoteInput, CustomerDetails, InvoiceInput } from '../billing/schemas/index.js';

/**
 * What a mapper makes of one source record, and what an upsert job carries to billing: one of the
 * billing interface's own input bodies, tagged by kind. Declared once, with the billing schemas, so the
 * body keeps its type from the mapper through the queue to the billing client.
 */
export const BillingBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('invoice'), invoice: InvoiceInput }),
  z.strictObject({ kind: z.literal('credit-note'), creditNote: CreditNoteInput }),
  z.strictObject({ kind: z.literal('customer'), customer: CustomerDetails }),
]);
export type BillingBody = z.infer<typeof BillingBody>;
