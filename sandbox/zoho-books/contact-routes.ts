import type { Router } from '../kit/router.js';
import { enumParam, listPage, timestampParam, type ListSpec } from './list-query.js';
import { NO_RECEIVABLES, renderContactDetail, renderContactRow, type Receivables } from './render-contact.js';
import type { ContactRecord } from './store-records.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';

function spec(receivables: Map<string, Receivables>): ListSpec<ContactRecord> {
  const primary = (c: ContactRecord) => c.contact_persons.find((p) => p.is_primary_contact);
  return {
    reportName: 'Contacts',
    // Contacts, unlike invoices, may be sorted by last_modified_time.
    sortColumns: {
      contact_name: (c) => c.contact_name,
      first_name: (c) => primary(c)?.first_name ?? '',
      last_name: (c) => primary(c)?.last_name ?? '',
      email: (c) => primary(c)?.email ?? '',
      outstanding_receivable_amount: (c) => receivables.get(c.contact_id)?.outstandingMinor ?? 0,
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
    id: (c) => c.contact_id,
  };
}

export function registerContactRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
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
      const receivables = store.receivables();
      const { rows, page_context } = listPage(
        store.contacts(),
        q,
        spec(receivables),
        (c) =>
          (type === undefined || c.contact_type === type) &&
          (modifiedSince === undefined || c.modifiedMs >= modifiedSince) &&
          (search === undefined || c.contact_name.toLowerCase().includes(search)),
      );
      return { contacts: rows.map((c) => renderContactRow(c, store.render, receivables.get(c.contact_id) ?? NO_RECEIVABLES)), page_context };
    }),
  );

  // https://www.zoho.com/books/api/v3/contacts/#get-contact
  router.on(
    'GET',
    '/books/v3/contacts/:contact_id',
    guard((ctx) => {
      const c = store.contact(ctx.params.contact_id ?? '');
      if (!c) throw zohoErrors.notFound('Contact');
      return { contact: renderContactDetail(c, store.render, store.receivables(c.contact_id).get(c.contact_id) ?? NO_RECEIVABLES) };
    }),
  );
}
