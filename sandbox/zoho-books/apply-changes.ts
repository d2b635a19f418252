import {
  ChangeRefused,
  changesMadeBy,
  createCount,
  targetIds,
  type ChangesBody,
  type ChangeMade,
} from '../kit/webhook-admin-routes.js';
import type { ContactRecord, CreditNoteRecord, InvoiceRecord } from './store-records.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { MutationError, type ZohoMutation } from './zoho-mutation.js';

/**
 * `POST /__admin/changes` on the Zoho Books sandbox (one organisation: `organisation` must be it if given),
 * as one mutation batch (one second for all, as `/__admin/mutate`):
 * - invoices: create; edit = the first line's quantity up by one unit (amounts change); void or delete,
 *   preferring ones with nothing paid, credited or written off, else with `force` (payments and credits
 *   removed first, as a Zoho user must);
 * - credit-notes: create one unit's credit against a posted invoice (applied up to its balance); edit = a
 *   save that changes no field (Zoho's Edited trigger fires; the sandbox has no credit-note field edit);
 *   void or delete, preferring unapplied ones, else with `force`;
 * - customers: edit = a new contact name; delete one with no transactions (as Zoho refuses otherwise);
 *   the sandbox creates no contacts and Zoho voids none.
 */
export function applyZohoChanges(store: ZohoDataStore, body: ChangesBody): ChangeMade[] {
  if (body.organisation !== undefined && body.organisation !== store.organizationId)
    throw new ChangeRefused(`no organisation ${body.organisation}; this sandbox holds ${store.organizationId}`, 404);
  const ops = { invoices, 'credit-notes': creditNotes, customers }[body.entity](store, body);
  try {
    return changesMadeBy(store.feed, body, () => store.mutate(ops));
  } catch (e) {
    if (e instanceof MutationError) throw new ChangeRefused(e.message, e.status === 404 ? 404 : 400);
    throw e;
  }
}

function clean(store: ZohoDataStore, inv: InvoiceRecord): boolean {
  return (
    inv.status !== 'void' &&
    inv.status !== 'draft' &&
    inv.payments.length === 0 &&
    inv.writeOffMinor === 0 &&
    store.creditsAppliedMinor(inv.invoice_id) === 0
  );
}

/** The records that need no `force` first, then the others, each in store order. */
function cleanFirst<T>(all: readonly T[], isClean: (r: T) => boolean): T[] {
  return [...all.filter(isClean), ...all.filter((r) => !isClean(r))];
}

function invoices(store: ZohoDataStore, body: ChangesBody): ZohoMutation[] {
  const all = store.invoices();
  const id = (i: InvoiceRecord) => i.invoice_id;
  switch (body.op) {
    case 'create':
      return Array.from({ length: createCount(body) }, () => ({ op: 'create_invoice' as const }));
    case 'edit':
      return targetIds(all, id, body, (i) => i.status !== 'void', 'invoices not void').map((x) => ({
        op: 'edit_invoice' as const,
        invoice_id: x,
      }));
    case 'void':
    case 'delete': {
      const op = body.op === 'void' ? ('void_invoice' as const) : ('delete_invoice' as const);
      const ordered = cleanFirst(all, (i) => clean(store, i));
      const can = (i: InvoiceRecord) => body.op === 'delete' || i.status !== 'void';
      return targetIds(ordered, id, body, can, 'invoices').map((x) => ({ op, invoice_id: x, force: true }));
    }
  }
}

function creditNotes(store: ZohoDataStore, body: ChangesBody): ZohoMutation[] {
  const all = store.creditNotes();
  const id = (c: CreditNoteRecord) => c.creditnote_id;
  switch (body.op) {
    case 'create': {
      const n = createCount(body);
      const posted = (i: InvoiceRecord) => i.status !== 'draft' && i.status !== 'void' && i.lines.length > 0;
      const open = cleanFirst(store.invoices(), (i) => clean(store, i)).filter(posted);
      if (open.length < n) throw new ChangeRefused(`only ${open.length} posted invoices to credit; asked for ${n}`);
      return open.slice(0, n).map((i) => ({ op: 'create_credit_note' as const, invoice_id: i.invoice_id }));
    }
    case 'edit':
      return targetIds(all, id, body, (c) => c.status !== 'void', 'credit notes not void').map((x) => ({
        op: 'touch' as const,
        entity: 'creditnote' as const,
        id: x,
      }));
    case 'void':
    case 'delete': {
      const op = body.op === 'void' ? ('void_credit_note' as const) : ('delete_credit_note' as const);
      const ordered = cleanFirst(all, (c) => c.status === 'open' && c.applications.length === 0);
      const can = (c: CreditNoteRecord) => body.op === 'delete' || c.status !== 'void';
      return targetIds(ordered, id, body, can, 'credit notes').map((x) => ({ op, creditnote_id: x, force: true }));
    }
  }
}

function customers(store: ZohoDataStore, body: ChangesBody): ZohoMutation[] {
  const all = store.contacts().filter((c) => c.contact_type === 'customer');
  const id = (c: ContactRecord) => c.contact_id;
  switch (body.op) {
    case 'create':
      throw new ChangeRefused('the Zoho Books sandbox creates no contacts; edit or delete one');
    case 'void':
      throw new ChangeRefused('Zoho Books contacts cannot be voided; delete one with no transactions');
    case 'edit':
      return targetIds(all, id, body, (c) => c.status === 'active', 'active customers').map((x) => ({
        op: 'edit_contact' as const,
        contact_id: x,
        changes: {
          contact_name: `${store.contact(x)?.contact_name.replace(/ \(rev \d+\)$/, '') ?? x} (rev ${store.data.random.int(2, 999)})`,
        },
      }));
    case 'delete': {
      const used = new Set([...store.invoices(), ...store.creditNotes()].map((d) => d.customer_id));
      return targetIds(all, id, body, (c) => !used.has(c.contact_id), 'customers with no transactions').map((x) => ({
        op: 'delete_contact' as const,
        contact_id: x,
      }));
    }
  }
}
