import {
  ChangeRefused,
  changesMadeBy,
  createCount as countOf,
  targetIds as targets,
  type ChangesBody,
  type ChangeMade,
} from '../kit/webhook-admin-routes.js';
import { DocumentRuleError } from './document-ops.js';
import { INDIA_TENANT_ID } from './tenants.js';
import { NotFoundError, type XeroDataStore } from './xero-data-store.js';
import type { XeroContact, XeroCreditNote, XeroInvoice } from './xero-records.js';

/**
 * `POST /__admin/changes` on the Xero sandbox, as a Xero user would make each change:
 * - invoices (sales): create AUTHORISED; edit = new lines (the amounts billing receives change), or a new
 *   reference where Xero allows no line change (something paid or credited); void an
 *   AUTHORISED one with nothing paid or credited; delete a DRAFT or SUBMITTED one (Xero deletes only those;
 *   with a count and too few drafts, the missing drafts are created first, and announced as creates);
 * - credit-notes: create AUTHORISED; edit = a new reference; void an AUTHORISED unallocated one; delete a
 *   draft (created first, likewise, when a count asks for more than there are);
 * - customers: create; edit = a new name (shown on every document); delete = archive (Xero deletes no
 *   contact); void does not exist for contacts.
 * `organisation` defaults to the INR organisation (the printed config's).
 */
export function applyXeroChanges(store: XeroDataStore, body: ChangesBody): ChangeMade[] {
  const t = (body.organisation ?? INDIA_TENANT_ID).toLowerCase();
  if (!store.hasTenant(t)) throw new ChangeRefused(`no organisation ${body.organisation ?? t}`, 404);
  const run = { invoices: invoices, 'credit-notes': creditNotes, customers: customers }[body.entity];
  try {
    return changesMadeBy(store.feed, body, () => store.batch(() => run(store, t, body)));
  } catch (e) {
    if (e instanceof DocumentRuleError) throw new ChangeRefused(e.message);
    if (e instanceof NotFoundError) throw new ChangeRefused(e.message, 404);
    throw e;
  }
}

const untouched = (d: { AmountPaid: number; AmountCredited?: number }) =>
  d.AmountPaid === 0 && (d.AmountCredited ?? 0) === 0;

function invoices(store: XeroDataStore, t: string, body: ChangesBody): void {
  const sales = store.invoices(t).filter((i) => i.Type === 'ACCREC');
  const id = (i: XeroInvoice) => i.InvoiceID;
  const open = (i: XeroInvoice) => i.Status === 'AUTHORISED' && untouched(i);
  switch (body.op) {
    case 'create':
      for (let i = 0; i < countOf(body); i++) store.createInvoice(t, { status: 'AUTHORISED' });
      return;
    case 'edit': {
      // New lines where Xero allows them (nothing paid or credited), else a new reference, as Xero permits.
      const editable = (i: XeroInvoice) => ['DRAFT', 'SUBMITTED', 'AUTHORISED'].includes(i.Status) && untouched(i);
      const live = (i: XeroInvoice) => i.Status !== 'VOIDED' && i.Status !== 'DELETED';
      const ordered = [...sales.filter(editable), ...sales.filter((i) => !editable(i))];
      for (const x of targets(ordered, id, body, live, 'invoices not voided or deleted'))
        store.editInvoice(t, x, editable(store.invoice(t, x)) ? { lines: true } : {});
      return;
    }
    case 'void':
      for (const x of targets(sales, id, body, open, 'open invoices')) store.voidInvoice(t, x);
      return;
    case 'delete': {
      const draft = (i: XeroInvoice) => i.Status === 'DRAFT' || i.Status === 'SUBMITTED';
      const missing = body.count === undefined ? 0 : body.count - sales.filter(draft).length;
      for (let i = 0; i < missing; i++) sales.push(store.createInvoice(t, { status: 'DRAFT' }));
      for (const x of targets(sales, id, body, draft, 'draft invoices')) store.deleteInvoice(t, x);
    }
  }
}

function creditNotes(store: XeroDataStore, t: string, body: ChangesBody): void {
  const all = store.creditNotes(t);
  const id = (c: XeroCreditNote) => c.CreditNoteID;
  const live = (c: XeroCreditNote) => c.Status === 'AUTHORISED';
  const free = (c: XeroCreditNote) => live(c) && c.Allocations.length === 0 && c.AppliedAmount === 0;
  switch (body.op) {
    case 'create':
      for (let i = 0; i < countOf(body); i++) store.createCreditNote(t, {});
      return;
    case 'edit':
      for (const x of targets(all, id, body, live, 'credit notes')) store.editCreditNote(t, x);
      return;
    case 'void':
      for (const x of targets(all, id, body, free, 'unallocated credit notes')) store.voidCreditNote(t, x);
      return;
    case 'delete': {
      const draft = (c: XeroCreditNote) => c.Status === 'DRAFT' || c.Status === 'SUBMITTED';
      const missing = body.count === undefined ? 0 : body.count - all.filter(draft).length;
      for (let i = 0; i < missing; i++) all.push(store.createCreditNote(t, { status: 'DRAFT' }));
      for (const x of targets(all, id, body, draft, 'draft credit notes')) store.deleteCreditNote(t, x);
    }
  }
}

function customers(store: XeroDataStore, t: string, body: ChangesBody): void {
  const all = store.contacts(t).filter((c) => c.IsCustomer);
  const id = (c: XeroContact) => c.ContactID;
  const active = (c: XeroContact) => c.ContactStatus === 'ACTIVE';
  switch (body.op) {
    case 'create':
      for (let i = 0; i < countOf(body); i++) store.createContact(t, {});
      return;
    case 'edit':
      for (const x of targets(all, id, body, active, 'active contacts')) {
        const c = store.contact(t, x);
        store.editContact(t, x, { name: `${c.Name.replace(/ \(\d+\)$/, '')} (${store.rng(t).int(2, 999)})` });
      }
      return;
    case 'void':
      throw new ChangeRefused('Xero contacts cannot be voided; delete archives one');
    case 'delete':
      for (const x of targets(all, id, body, active, 'active contacts')) store.archiveContact(t, x);
  }
}
