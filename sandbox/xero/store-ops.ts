import { Money } from '../kit/minor-units.js';
import { DocumentRuleError } from './document-ops.js';
import type { ContactSpec } from './generate-contacts.js';
import type { ContactEdit, CreditNoteCreate, InvoiceCreate, InvoiceEdit, XeroDataStore } from './xero-data-store.js';

/**
 * The changes the admin route `POST /__admin/tenants/:tenantId/ops` accepts, one JSON object each, and
 * `churn`: random realistic changes for soak tests and demos.
 */
export type StoreOp =
  | ({ op: 'create-invoice' } & InvoiceCreate)
  | ({ op: 'edit-invoice'; id: string } & InvoiceEdit)
  | { op: 'void-invoice' | 'delete-invoice'; id: string }
  | { op: 'pay-invoice'; id: string; amount?: number }
  | ({ op: 'create-credit-note' } & CreditNoteCreate)
  | { op: 'allocate-credit-note'; id: string; invoiceId: string; amount?: number }
  | { op: 'void-credit-note' | 'delete-credit-note'; id: string }
  | { op: 'edit-credit-note'; id: string; reference?: string }
  | ({ op: 'create-contact' } & ContactSpec)
  | ({ op: 'edit-contact'; id: string } & ContactEdit)
  | { op: 'archive-contact'; id: string };

export function applyStoreOp(store: XeroDataStore, tenantId: string, op: StoreOp): { id: string } {
  switch (op.op) {
    case 'create-invoice':
      return { id: store.createInvoice(tenantId, op).InvoiceID };
    case 'edit-invoice':
      return { id: store.editInvoice(tenantId, op.id, op).InvoiceID };
    case 'void-invoice':
      return { id: store.voidInvoice(tenantId, op.id).InvoiceID };
    case 'delete-invoice':
      return { id: store.deleteInvoice(tenantId, op.id).InvoiceID };
    case 'pay-invoice':
      return { id: store.payInvoice(tenantId, op.id, op.amount).InvoiceID };
    case 'create-credit-note':
      return { id: store.createCreditNote(tenantId, op).CreditNoteID };
    case 'allocate-credit-note':
      return { id: store.allocateCreditNote(tenantId, op.id, op.invoiceId, op.amount).CreditNoteID };
    case 'void-credit-note':
      return { id: store.voidCreditNote(tenantId, op.id).CreditNoteID };
    case 'delete-credit-note':
      return { id: store.deleteCreditNote(tenantId, op.id).CreditNoteID };
    case 'edit-credit-note':
      return { id: store.editCreditNote(tenantId, op.id, op.reference).CreditNoteID };
    case 'create-contact':
      return { id: store.createContact(tenantId, op).ContactID };
    case 'edit-contact':
      return { id: store.editContact(tenantId, op.id, op).ContactID };
    case 'archive-contact':
      return { id: store.archiveContact(tenantId, op.id).ContactID };
  }
}

/**
 * `count` random changes (edits, payments, voids, deletes, new invoices) at one instant when
 * `sameInstant`, else each at the clock's current time. Returns the changed invoice ids.
 */
export function churn(store: XeroDataStore, tenantId: string, count: number, sameInstant = true): string[] {
  const rng = store.rng(tenantId);
  const run = () => {
    const changed: string[] = [];
    for (let i = 0; i < count; i++) {
      const invoices = store.invoices(tenantId).filter((inv) => inv.Type === 'ACCREC');
      const inv = rng.pick(invoices);
      try {
        if (inv.Status === 'AUTHORISED' && rng.chance(0.3))
          store.payInvoice(
            tenantId,
            inv.InvoiceID,
            new Money(inv.AmountDue).div(2).toDecimalPlaces(2).toNumber() || undefined,
          );
        else if ((inv.Status === 'DRAFT' || inv.Status === 'SUBMITTED') && rng.chance(0.3))
          store.deleteInvoice(tenantId, inv.InvoiceID);
        else if (rng.chance(0.1)) {
          changed.push(store.createInvoice(tenantId).InvoiceID);
          continue;
        } else store.editInvoice(tenantId, inv.InvoiceID, {});
        changed.push(inv.InvoiceID);
      } catch (e) {
        if (!(e instanceof DocumentRuleError)) throw e;
      }
    }
    return changed;
  };
  return sameInstant ? store.batch(run) : run();
}
