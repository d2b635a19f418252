import type { AttachmentPurpose, InvoiceInput, LifecycleStatus } from '../../src/billing/schemas/index.js';

/**
 * The invoice as the emulator's store keeps it, in a leaf file so that the store and the record
 * renderer (invoice-record.ts, which the store calls to derive `outstanding`) both import it without
 * importing each other.
 */

export interface StoredAttachment {
  id: string;
  filename: string;
  url: string;
  purpose: AttachmentPurpose;
  createdAtMs: number;
}

export interface StoredInvoice {
  /** Position in the company's creation-order array. */
  readonly seq: number;
  /** Service id, `inv_<n>` (n global, increasing with creation). */
  readonly id: string;
  input: InvoiceInput;
  lifecycleStatus: LifecycleStatus;
  createdAtMs: number;
  updatedAtMs: number;
  /** UTC date parts of createdAt/updatedAt, kept for fast date-range filters. */
  createdDate: string;
  updatedDate: string;
  /** Derived on every write (A11). */
  outstanding: number;
  /** Sort key part derived from invoiceDate (day number; missing date = earliest). */
  invoiceDay: number;
  /** Copy of input.invoiceOriginSource: the reconciliation filter reads it on every invoice. */
  originSource: string;
  /** creditNoteId → amount applied to this invoice (A20). */
  creditNotes?: Map<string, number>;
  creditNoteAdjusted: number;
  attachments: StoredAttachment[];
}
