import { z } from 'zod';

/**
 * What a Zoho user can do to the sandbox's data between syncs (POST /__admin/mutate, or
 * `store.mutate(...)`). Every op in one batch is stamped with the same `last_modified_time` second, which
 * is how tests produce several edits within one second. A batch is all-or-nothing.
 */
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');
const money = z
  .number()
  .refine((n) => Number.isFinite(n) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'at most 2 decimals');

const LineChange = z.strictObject({
  /** Which line: by id or by 0-based position. */
  line_item_id: z.string().optional(),
  index: z.number().int().min(0).optional(),
  quantity: money.refine((n) => n > 0, 'must be positive').optional(),
  rate: money.refine((n) => n > 0, 'must be positive').optional(),
});

export const InvoiceChanges = z.strictObject({
  reference_number: z.string().optional(),
  notes: z.string().optional(),
  due_date: date.optional(),
  /** Per-line quantity/rate changes; amounts are recomputed. */
  lines: z.array(LineChange).optional(),
  /** Appends a line selling `item_id` (default: the first line's item) at `rate` × `quantity`. */
  add_line: z.strictObject({ item_id: z.string().optional(), quantity: money, rate: money }).optional(),
  shipping_charge: money.optional(),
  adjustment: money.optional(),
  adjustment_description: z.string().optional(),
  /** Mark a draft as sent (Zoho's "mark as sent"). */
  mark_as_sent: z.boolean().optional(),
  /** Turn a sent invoice with nothing paid or credited back into a draft (Zoho's "Convert to Draft"). */
  mark_as_draft: z.boolean().optional(),
});
export type InvoiceChanges = z.infer<typeof InvoiceChanges>;

export const ContactChanges = z.strictObject({
  contact_name: z.string().min(1).optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  status: z.enum(['active', 'inactive']).optional(),
  notes: z.string().optional(),
});
export type ContactChanges = z.infer<typeof ContactChanges>;

export const ZohoMutation = z.discriminatedUnion('op', [
  /** Without `changes`: the first line's quantity goes up by one unit (amounts change consistently). */
  z.strictObject({ op: z.literal('edit_invoice'), invoice_id: z.string(), changes: InvoiceChanges.optional() }),
  z.strictObject({
    op: z.literal('create_invoice'),
    /** Default: a seeded pick among active customers. */
    customer_id: z.string().optional(),
    line_count: z.number().int().min(1).max(20).optional(),
    draft: z.boolean().optional(),
    discount: z.enum(['none', 'item', 'entity_before', 'entity_after']).optional(),
  }),
  /** Zoho refuses to void/delete invoices with payments or credits; `force` removes them first. */
  z.strictObject({ op: z.literal('void_invoice'), invoice_id: z.string(), force: z.boolean().optional() }),
  z.strictObject({ op: z.literal('delete_invoice'), invoice_id: z.string(), force: z.boolean().optional() }),
  /** Default amount: the whole balance; default date: the emulator's today. */
  z.strictObject({
    op: z.literal('record_payment'),
    invoice_id: z.string(),
    amount: money.optional(),
    date: date.optional(),
  }),
  /** Credits one unit of the invoice's first line; applies min(total, balance) unless `apply: false`. */
  z.strictObject({ op: z.literal('create_credit_note'), invoice_id: z.string(), apply: z.boolean().optional() }),
  z.strictObject({ op: z.literal('void_credit_note'), creditnote_id: z.string(), force: z.boolean().optional() }),
  z.strictObject({ op: z.literal('delete_credit_note'), creditnote_id: z.string(), force: z.boolean().optional() }),
  z.strictObject({ op: z.literal('edit_contact'), contact_id: z.string(), changes: ContactChanges.optional() }),
  /** Refused while the contact has invoices or credit notes (as Zoho does). */
  z.strictObject({ op: z.literal('delete_contact'), contact_id: z.string() }),
  /** Bumps `last_modified_time` only. */
  z.strictObject({ op: z.literal('touch'), entity: z.enum(['invoice', 'creditnote', 'contact']), id: z.string() }),
]);
export type ZohoMutation = z.infer<typeof ZohoMutation>;

const BatchObject = z.strictObject({
  ops: z.array(ZohoMutation),
  /** Stamp the batch at this instant instead of the emulator clock (ISO-8601). */
  at: z.iso.datetime({ offset: true }).optional(),
});

/** `[op, ...]` or `{ops: [...], at?}`. */
export const ZohoMutationBatch = z.union([z.array(ZohoMutation), BatchObject]);
export type ZohoMutationBatch = z.infer<typeof ZohoMutationBatch>;

/** Parses either batch form with errors that name the failing op (`0.op: ...`); throws a ZodError. */
export function parseMutationBatch(body: unknown): { ops: ZohoMutation[]; at?: string } {
  return Array.isArray(body) ? { ops: z.array(ZohoMutation).parse(body) } : BatchObject.parse(body);
}

export interface ZohoMutationResult {
  op: ZohoMutation['op'];
  /** The record's id (the new id for create ops). */
  id: string;
  /** Its new `last_modified_time`; null once deleted. */
  last_modified_time: string | null;
  /** invoice_number / creditnote_number for created records. */
  number?: string;
}

/** A mutation Zoho itself would refuse (the whole batch is rolled back). */
export class MutationError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
    this.name = 'MutationError';
  }
}
