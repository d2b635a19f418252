import { z } from 'zod';
import { markChecked } from '../billing/schemas/checked-input.js';
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

/**
 * A job payload's body parsed with the billing schemas; the invoice or credit note it returns is sent by
 * the billing client without a second parse (src/billing/schemas/checked-input.ts).
 */
export function parseBillingBody(value: unknown): ReturnType<typeof BillingBody.safeParse> {
  const parsed = BillingBody.safeParse(value);
  if (parsed.data?.kind === 'invoice') markChecked(parsed.data.invoice);
  else if (parsed.data?.kind === 'credit-note') markChecked(parsed.data.creditNote);
  return parsed;
}
