import type { ChangeEntity, ChangeOp, RecordedChange } from '../kit/change-feed.js';
import type { RecordKind } from './apply-mutation.js';
import { renderContactDetail, NO_RECEIVABLES, type Receivables } from './render-contact.js';
import type { RenderContext } from './render-context.js';
import { renderCreditNoteDetail } from './render-credit-note.js';
import { renderInvoiceDetail } from './render-invoice.js';
import type { ContactRecord, CreditNoteRecord, InvoiceRecord } from './store-records.js';

type AnyRecord = InvoiceRecord | CreditNoteRecord | ContactRecord;

/**
 * What a batch's changes are read from: the parts of ZohoDataStore used here, declared here so that the
 * store (which calls batchChanges) and this file do not import each other.
 */
interface ChangeSource {
  readonly organizationId: string;
  readonly invoiceMap: ReadonlyMap<string, InvoiceRecord>;
  readonly creditNoteMap: ReadonlyMap<string, CreditNoteRecord>;
  readonly contactMap: ReadonlyMap<string, ContactRecord>;
  readonly render: RenderContext;
  receivables(contactId?: string): Map<string, Receivables>;
}

const ENTITY: Record<RecordKind, ChangeEntity> = {
  invoice: 'invoices',
  creditnote: 'credit-notes',
  contact: 'customers',
};

/**
 * The changes one applied mutation batch made, from the records it touched (their copies before the batch
 * and the maps after it): created, deleted, voided (status became void) or edited. A credit note applied
 * to an invoice edits the invoice too, as Zoho's Edited trigger sees it.
 */
export function batchChanges(
  store: ChangeSource,
  touched: Iterable<{ kind: RecordKind; id: string; before: AnyRecord | undefined }>,
  now: number,
): RecordedChange[] {
  const out: RecordedChange[] = [];
  for (const { kind, id, before } of touched) {
    const after = mapOf(store, kind).get(id);
    if (!before && !after) continue;
    const op: ChangeOp = !before
      ? 'create'
      : !after
        ? 'delete'
        : statusOf(before) !== 'void' && statusOf(after) === 'void'
          ? 'void'
          : 'edit';
    const record = (after ?? before)!;
    out.push({
      entity: ENTITY[kind],
      op,
      id,
      organisation: store.organizationId,
      modifiedAt: now,
      render: () => render(store, kind, record),
    });
  }
  return out;
}

function mapOf(store: ChangeSource, kind: RecordKind): ReadonlyMap<string, AnyRecord> {
  return kind === 'invoice' ? store.invoiceMap : kind === 'creditnote' ? store.creditNoteMap : store.contactMap;
}

function statusOf(r: AnyRecord): string {
  return 'status' in r ? String(r.status) : '';
}

/** The record as `GET /<module>/{id}` shows it: what the workflow webhook's default payload carries. */
function render(store: ChangeSource, kind: RecordKind, r: AnyRecord): Record<string, unknown> {
  if (kind === 'invoice') return renderInvoiceDetail(r as InvoiceRecord, store.render);
  if (kind === 'creditnote') return renderCreditNoteDetail(r as CreditNoteRecord, store.render);
  const c = r as ContactRecord;
  return renderContactDetail(c, store.render, store.receivables(c.contact_id).get(c.contact_id) ?? NO_RECEIVABLES);
}
