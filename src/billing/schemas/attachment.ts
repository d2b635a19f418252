import { z } from 'zod';
import { AttachmentPurpose } from './enums.js';

/** Endpoint 6 body. Our decision: the purpose travels as `attachmentPurpose` (default GENERAL). */
export const InvoiceAttachmentBody = z.strictObject({
  invoiceNumber: z.string().min(1),
  attachmentUrl: z.url({ protocol: /^https?$/ }),
  attachmentPurpose: AttachmentPurpose.optional(),
});
export type InvoiceAttachmentBody = z.infer<typeof InvoiceAttachmentBody>;

/** Endpoint 8 body. */
export const CreditNoteAttachmentBody = z.strictObject({
  creditNoteNumber: z.string().min(1),
  attachmentUrl: z.url({ protocol: /^https?$/ }),
  attachmentPurpose: AttachmentPurpose.optional(),
});
export type CreditNoteAttachmentBody = z.infer<typeof CreditNoteAttachmentBody>;

/** Endpoints 6 and 7: the attachment list of one invoice. */
export const AttachmentList = z.looseObject({
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  customerName: z.string().nullish(),
  buyerId: z.string().nullish(),
  attachments: z.array(z.looseObject({ filename: z.string(), purpose: z.string(), createdAt: z.string() })),
});
export type AttachmentList = z.infer<typeof AttachmentList>;
