import type { CreditNoteInput } from '../../src/billing/schemas/index.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { DEPENDENCY_WAITS_MAX, dependencyWaitMs } from '../catalog.js';
import { DependencyMissingError } from './dependency-missing-error.js';
import { invoicesNotInBilling, invoicesThatWillNotCome } from './missing-invoices.js';
import type { CheckedBody, UpsertRun } from './types.js';

/** The billing write of the record's entity: its billing id and document number. */
export async function writeByEntity(
  run: UpsertRun,
  body: CheckedBody,
): Promise<{ billingId: string; number?: string }> {
  const { billing, signal } = run;
  if (body.kind === 'invoice') {
    const invoice = body.invoice;
    await billing.upsertInvoice(invoice, { signal });
    if (run.needsAttachment) {
      await billing.addInvoiceAttachment(
        {
          invoiceNumber: invoice.invoiceNumber,
          attachmentUrl: run.data.documentUrl!,
          attachmentPurpose: 'INVOICE_FOR_BUYER',
        },
        { signal },
      );
    }
    return { billingId: invoice.invoiceId, number: invoice.invoiceNumber };
  }
  if (body.kind === 'credit-note') {
    const creditNote = body.creditNote;
    await awaitAppliedInvoices(run, creditNote);
    await billing.upsertCreditNote(creditNote, { signal });
    if (run.needsAttachment) {
      await billing.addCreditNoteAttachment(
        {
          creditNoteNumber: creditNote.creditNoteNumber,
          attachmentUrl: run.data.documentUrl!,
          attachmentPurpose: 'CREDITNOTE_FOR_BUYER',
        },
        { signal },
      );
    }
    return { billingId: creditNote.creditNoteId, number: creditNote.creditNoteNumber };
  }
  return { billingId: body.customer.buyerId };
}

/**
 * A credit note applied to an invoice billing does not have yet (it may still be queued) waits for it,
 * within the dependency wait; one whose invoices will not come, or still have not, is refused.
 */
async function awaitAppliedInvoices(run: UpsertRun, creditNote: CreditNoteInput): Promise<void> {
  const { rt, data } = run;
  const missing = await invoicesNotInBilling(rt, run.billing, data.connectionId, creditNote, run.signal);
  if (!missing.length) return;
  const waits = data.dependencyWaits ?? 0;
  const since = data.dependencySince ?? Date.now();
  const hopeless = await invoicesThatWillNotCome(rt, data.connectionId, missing);
  const inTime = Date.now() - since < rt.config.sync.dependencyWaitSeconds * 1000 && waits < DEPENDENCY_WAITS_MAX;
  if (!hopeless.length && inTime) {
    return await run.control.setAside(
      { reason: 'dependency', at: Date.now() + dependencyWaitMs(waits) },
      { ...data, billingSlotAt: undefined, dependencyWaits: waits + 1, dependencySince: since },
    );
  }
  throw new DependencyMissingError(
    hopeless.length
      ? `credit note ${creditNote.creditNoteNumber} applies to invoices that will not reach billing (quarantined or deleted in the source): ${hopeless.join(', ')}`
      : `credit note ${creditNote.creditNoteNumber} applies to invoices still not in billing after ${Math.round((Date.now() - since) / 1000)} s: ${missing.join(', ')}`,
  );
}

export function writtenEntry(
  { data, current, control }: UpsertRun,
  { billingId, number }: { billingId: string; number?: string },
): LedgerEntry {
  return {
    hash: data.hash,
    version: data.version,
    billingId,
    number,
    sourceStatus: data.sourceStatus,
    sourceLifecycle: data.sourceLifecycle,
    writtenAt: Date.now(),
    jobId: control.jobId,
    fields: data.fields,
    attachmentUrl: data.documentUrl ?? current?.attachmentUrl,
  };
}
