import {
  ChangeRefused,
  changesMadeBy,
  createCount,
  targetIds,
  type ChangesBody,
  type ChangeMade,
} from '../kit/webhook-admin-routes.js';
import { computeAmounts } from './compute-amounts.js';
import type { StoredCustomer, StoredDoc } from './model.js';
import { Invalid, NotFound, type QboStore } from './qbo-store.js';

/**
 * `POST /__admin/changes` on the QuickBooks sandbox (one realm: `organisation` must be it if given), as a
 * QuickBooks user makes each change:
 * - invoices: create; edit = the first line's quantity up by one (the amounts billing receives change);
 *   void one with nothing paid or credited (QBO keeps it with zero amounts); delete one likewise;
 * - credit-notes (credit memos): create against an open invoice, applied; edit = quantity up by one;
 *   delete an unapplied one; QuickBooks voids no credit memo through the API;
 * - customers: create; edit = a new display name; delete = make inactive (QuickBooks deletes no customer).
 */
export function applyQuickBooksChanges(store: QboStore, body: ChangesBody): ChangeMade[] {
  if (body.organisation !== undefined && body.organisation !== store.organisation)
    throw new ChangeRefused(`no realm ${body.organisation}; this sandbox holds ${store.organisation}`, 404);
  const run = { invoices, 'credit-notes': creditMemos, customers }[body.entity];
  try {
    return changesMadeBy(store.feed, body, () => run(store, body));
  } catch (e) {
    if (e instanceof NotFound) throw new ChangeRefused(e.message, 404);
    if (e instanceof Invalid) throw new ChangeRefused(e.message);
    throw e;
  }
}

const docId = (d: StoredDoc) => d.id;
const untouched = (d: StoredDoc) => !d.voided && d.paidPaise === 0 && d.creditPaise === 0;
const bumped = (store: QboStore, kind: StoredDoc['kind'], id: string) => ({
  qty: (store.doc(kind, id).lines[0]?.qty ?? 0) + 1,
});

function invoices(store: QboStore, body: ChangesBody): void {
  const all = [...store.docs.Invoice.values()];
  switch (body.op) {
    case 'create':
      for (let i = 0; i < createCount(body); i++) store.createInvoice({});
      return;
    case 'edit':
      for (const id of targetIds(all, docId, body, (d) => !d.voided, 'invoices not voided'))
        store.editInvoice(id, bumped(store, 'Invoice', id));
      return;
    case 'void':
      for (const id of targetIds(all, docId, body, untouched, 'unpaid invoices')) store.voidInvoice(id);
      return;
    case 'delete':
      for (const id of targetIds(all, docId, body, untouched, 'unpaid invoices')) store.deleteDoc('Invoice', id);
  }
}

function creditMemos(store: QboStore, body: ChangesBody): void {
  const all = [...store.docs.CreditMemo.values()];
  switch (body.op) {
    case 'create': {
      const open = [...store.docs.Invoice.values()].filter((d) => !d.voided && computeAmounts(d).balance > 0);
      const n = createCount(body);
      if (open.length < n) throw new ChangeRefused(`only ${open.length} open invoices to credit; asked for ${n}`);
      for (const inv of open.slice(0, n)) store.createCreditMemo({ invoiceId: inv.id });
      return;
    }
    case 'edit':
      for (const id of targetIds(all, docId, body, () => true, 'credit memos'))
        store.editInvoice(id, bumped(store, 'CreditMemo', id), 'CreditMemo');
      return;
    case 'void':
      throw new ChangeRefused('QuickBooks credit memos cannot be voided; delete one instead');
    case 'delete':
      for (const id of targetIds(all, docId, body, (d) => d.creditPaise === 0, 'unapplied credit memos'))
        store.deleteDoc('CreditMemo', id);
  }
}

function customers(store: QboStore, body: ChangesBody): void {
  const all = [...store.customers.values()];
  const id = (c: StoredCustomer) => c.id;
  const active = (c: StoredCustomer) => c.active;
  switch (body.op) {
    case 'create':
      for (let i = 0; i < createCount(body); i++)
        store.createCustomer({ displayName: `Sandbox Customer ${store.counters.Customer + 1}` });
      return;
    case 'edit':
      for (const x of targetIds(all, id, body, active, 'active customers')) {
        const c = store.customer(x);
        store.editCustomer(x, {
          displayName: `${c.displayName.replace(/ \(rev \d+\)$/, '')} (rev ${c.syncToken + 1})`,
        });
      }
      return;
    case 'void':
      throw new ChangeRefused('QuickBooks customers cannot be voided; delete makes one inactive');
    case 'delete':
      for (const x of targetIds(all, id, body, active, 'active customers')) store.editCustomer(x, { active: false });
  }
}
