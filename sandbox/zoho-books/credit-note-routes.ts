import type { Router } from '../kit/router.js';
import { creditNoteBalanceMinor } from './generate-credit-notes.js';
import { dateRange, enumParam, listPage, timestampParam, type ListSpec } from './list-query.js';
import { renderCreditNoteDetail, renderCreditNoteRow } from './render-credit-note.js';
import type { CreditNoteRecord } from './store-records.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';

const SPEC: ListSpec<CreditNoteRecord> = {
  reportName: 'Credit Notes',
  // No last_modified_time sort for credit notes either.
  sortColumns: {
    customer_name: (c) => c.customer_name,
    creditnote_number: (c) => c.creditnote_number,
    balance: (c) => creditNoteBalanceMinor(c),
    total: (c) => c.amounts.totalMinor,
    date: (c) => c.date,
    created_time: (c) => c.createdMs,
  },
  defaultSort: { column: 'created_time', order: 'D' },
  filters: {
    'Status.All': undefined,
    'Status.Open': (c) => c.status === 'open',
    'Status.Draft': (c) => c.status === 'draft',
    'Status.Closed': (c) => c.status === 'closed',
    'Status.Void': (c) => c.status === 'void',
  },
  defaultFilter: 'Status.All',
  id: (c) => c.creditnote_id,
};

export function registerCreditNoteRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
  // https://www.zoho.com/books/api/v3/credit-notes/#list-all-credit-notes
  // The OpenAPI does not list `last_modified_time` here, but tap-zohobooks sends it and the sandbox honours
  // it with the same inclusive (>=) semantics as invoices.
  router.on(
    'GET',
    '/books/v3/creditnotes',
    guard((ctx) => {
      const q = ctx.query;
      const status = enumParam(q, 'status', ['open', 'closed', 'void', 'draft'] as const);
      const modifiedSince = timestampParam(q, 'last_modified_time', store.organization.offsetMinutes);
      const onDate = dateRange(q, 'date');
      const customerId = q.get('customer_id') || undefined;
      const number = q.get('creditnote_number') || undefined;
      const { rows, page_context } = listPage(
        store.creditNotes(),
        q,
        SPEC,
        (cn) =>
          (status === undefined || cn.status === status) &&
          (modifiedSince === undefined || cn.modifiedMs >= modifiedSince) &&
          (customerId === undefined || cn.customer_id === customerId) &&
          (number === undefined || cn.creditnote_number === number) &&
          onDate(cn.date),
      );
      return { creditnotes: rows.map((cn) => renderCreditNoteRow(cn, store.render)), page_context };
    }),
  );

  // https://www.zoho.com/books/api/v3/credit-notes/#get-a-credit-note
  router.on(
    'GET',
    '/books/v3/creditnotes/:creditnote_id',
    guard((ctx) => {
      const cn = store.creditNote(ctx.params.creditnote_id ?? '');
      if (!cn) throw zohoErrors.notFound('Credit Note');
      return { creditnote: renderCreditNoteDetail(cn, store.render) };
    }),
  );
}
