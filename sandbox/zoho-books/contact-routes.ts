import type { Router } from '../kit/router.js';
import { enumParam, listPage, SortedListings, timestampParam, type ListSpec } from './list-query.js';
import { NO_RECEIVABLES, renderContactDetail, renderContactRow, type Receivables } from './render-contact.js';
import { toAmount } from '../kit/minor-units.js';
import { amountOf, replayedCreatedMs, replayedModifiedMs, replayedRow, textOf } from './replayed-records.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';

/** What the list filters, sorts and prints of one contact, generated or replayed alike. */
interface ContactView {
  id: string;
  contact_type: string;
  status: string;
  contact_name: string;
  first_name: string;
  last_name: string;
  email: string;
  outstanding: number;
  modifiedMs: number;
  createdMs: number;
  row(): Record<string, unknown>;
}

function views(store: ZohoDataStore, receivables: Map<string, Receivables>): ContactView[] {
  const offset = store.organization.offsetMinutes;
  const generated = store
    .contacts()
    .filter((c) => !store.replayed.has('contacts', c.contact_id))
    .map((c): ContactView => {
      const primary = c.contact_persons.find((p) => p.is_primary_contact);
      const r = receivables.get(c.contact_id) ?? NO_RECEIVABLES;
      return {
        id: c.contact_id,
        contact_type: c.contact_type,
        status: c.status,
        contact_name: c.contact_name,
        first_name: primary?.first_name ?? '',
        last_name: primary?.last_name ?? '',
        email: primary?.email ?? '',
        outstanding: toAmount(r.outstandingMinor),
        modifiedMs: c.modifiedMs,
        createdMs: c.createdMs,
        row: () => renderContactRow(c, store.render, r),
      };
    });
  const replayed = store.replayed.all('contacts').map((raw): ContactView => ({
    id: textOf(raw.contact_id),
    // Zoho's contact detail always says its type; a replayed one without it is a customer.
    contact_type: textOf(raw.contact_type) || 'customer',
    status: textOf(raw.status) || 'active',
    contact_name: textOf(raw.contact_name),
    first_name: textOf(raw.first_name),
    last_name: textOf(raw.last_name),
    email: textOf(raw.email),
    outstanding: amountOf(raw.outstanding_receivable_amount),
    modifiedMs: replayedModifiedMs(raw, offset),
    createdMs: replayedCreatedMs(raw, offset),
    row: () => replayedRow('contacts', raw),
  }));
  return [...generated, ...replayed];
}

const SPEC: ListSpec<ContactView> = {
  reportName: 'Contacts',
  // Contacts, unlike invoices, may be sorted by last_modified_time.
  sortColumns: {
    contact_name: (c) => c.contact_name,
    first_name: (c) => c.first_name,
    last_name: (c) => c.last_name,
    email: (c) => c.email,
    outstanding_receivable_amount: (c) => c.outstanding,
    created_time: (c) => c.createdMs,
    last_modified_time: (c) => c.modifiedMs,
  },
  defaultSort: { column: 'contact_name', order: 'A' },
  filters: {
    'Status.All': undefined,
    'Status.Active': (c) => c.status === 'active',
    'Status.Inactive': (c) => c.status === 'inactive',
  },
  defaultFilter: 'Status.All',
  id: (c) => c.id,
};

export function registerContactRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
  const listings = new SortedListings(
    () => store.version,
    () => views(store, store.receivables()),
  );
  // https://www.zoho.com/books/api/v3/contacts/#list-contacts
  // Without contact_type the list mixes vendors in. `last_modified_time` (>=) is honoured as tap-zohobooks
  // sends it, though the OpenAPI does not list it; `sort_column=last_modified_time` is the documented way.
  router.on(
    'GET',
    '/books/v3/contacts',
    guard((ctx) => {
      const q = ctx.query;
      const type = enumParam(q, 'contact_type', ['customer', 'vendor'] as const);
      const modifiedSince = timestampParam(q, 'last_modified_time', store.organization.offsetMinutes);
      const search = q.get('search_text')?.toLowerCase() || undefined;
      const { rows, page_context } = listPage(
        listings,
        q,
        SPEC,
        (c) =>
          (type === undefined || c.contact_type === type) &&
          (modifiedSince === undefined || c.modifiedMs >= modifiedSince) &&
          (search === undefined || c.contact_name.toLowerCase().includes(search)),
      );
      return { contacts: rows.map((c) => c.row()), page_context };
    }),
  );

  // https://www.zoho.com/books/api/v3/contacts/#get-contact
  router.on(
    'GET',
    '/books/v3/contacts/:contact_id',
    guard((ctx) => {
      const id = ctx.params.contact_id ?? '';
      const replayed = store.replayed.get('contacts', id);
      if (replayed) return { contact: replayed };
      const c = store.contact(id);
      if (!c) throw zohoErrors.notFound('Contact');
      return {
        contact: renderContactDetail(
          c,
          store.render,
          store.receivables(c.contact_id).get(c.contact_id) ?? NO_RECEIVABLES,
        ),
      };
    }),
  );
}
