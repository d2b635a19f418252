import type { Lifecycle } from '../connector/lifecycle.js';

/** What was written to billing for one source record. */
export interface LedgerEntry {
  /** Content hash of the billing body that was written. */
  hash: string;
  /** Source version (UTC ISO) of what was written. */
  version: string;
  /** Billing-side ids (invoiceId / creditNoteId / buyerId). */
  billingId: string;
  /** Document number as sent (invoice or credit-note number). */
  number?: string;
  /** Source status sent in metaData (void, paid, ...). */
  sourceStatus?: string;
  /** Where the source document stood (draft, issued, void); absent on entries written before it was kept. */
  sourceLifecycle?: Lifecycle;
  /** When billing acknowledged it (ms since epoch). */
  writtenAt: number;
  jobId?: string;
  /** Fields reconciliation compares (amounts as strings, exact). */
  fields?: Record<string, string | null>;
  /** The ERP document link attached as INVOICE_FOR_BUYER, once. */
  attachmentUrl?: string;
  /** Set when the source deleted the record (never for voids): reconciliation reports it. */
  sourceDeletedAt?: string;
}
