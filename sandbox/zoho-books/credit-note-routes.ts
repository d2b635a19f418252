import type { Router } from '../kit/router.js';
import { creditNoteBalanceMinor } from './generate-credit-notes.js';
import { dateRange, enumParam, listPage, SortedListings, timestampParam, type ListSpec } from './list-query.js';
import { renderCreditNoteDetail, renderCreditNoteRow } from './render-credit-note.js';
import { toAmount } from '../kit/minor-units.js';
import { amountOf, replayedCreatedMs, replayedModifiedMs, replayedRow, textOf } from './replayed-records.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';

/** What the list filters, sorts and prints of one credit note, generated or replayed alike. */
interface CreditNoteView {
  id: string;
  status: string;
  modifiedMs: number;
  createdMs: number;
  customer_id: string;
  customer_name: string;
  creditnote_number: string;
  date: string;
  total: number;
  balance: number;
  row(): Record<string, unknown>;
}

function views(store: ZohoDataStore): CreditNoteView[] {
  const offset = store.organization.offsetMinutes;
  const generated = store
    .creditNotes()
    .filter((cn) => !store.replayed.has('creditnotes', cn.creditnote_id))
    .map((cn): CreditNoteView => ({
      id: cn.creditnote_id,
      status: cn.status,
      modifiedMs: cn.modifiedMs,
      createdMs: cn.createdMs,
      customer_id: cn.customer_id,
      customer_name: cn.customer_name,
      creditnote_number: cn.creditnote_number,
      date: cn.date,
      total: toAmount(cn.amounts.totalMinor),
      balance: toAmount(creditNoteBalanceMinor(cn)),
      row: () => renderCreditNoteRow(cn, store.render),
    }));
  const replayed = store.replayed.all('creditnotes').map((raw): CreditNoteView => ({
    id: textOf(raw.creditnote_id),
    status: textOf(raw.status),
    modifiedMs: replayedModifiedMs(raw, offset),
    createdMs: replayedCreatedMs(raw, offset),
    customer_id: textOf(raw.customer_id),
    customer_name: textOf(raw.customer_name),
    creditnote_number: textOf(raw.creditnote_number),
    date: textOf(raw.date),
    total: amountOf(raw.total),
    balance: amountOf(raw.balance ?? raw.total),
    row: () => replayedRow('creditnotes', raw),
  }));
  return [...generated, ...replayed];
}

const SPEC: ListSpec<CreditNoteView> = {
  reportName: 'Credit Notes',
  // No last_modified_time sort for credit notes either.
  sortColumns: {
    customer_name: (c) => c.customer_name,
    creditnote_number: (c) => c.creditnote_number,
    balance: (c) => c.balance,
    total: (c) => c.total,
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
  id: (c) => c.id,
};

export function registerCreditNoteRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
  const listings = new SortedListings(
    () => store.version,
    () => views(store),
  );
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
        listings,
        q,
        SPEC,
        (cn) =>
          (status === undefined || cn.status === status) &&
          (modifiedSince === undefined || cn.modifiedMs >= modifiedSince) &&
          (customerId === undefined || cn.customer_id === customerId) &&
          (number === undefined || cn.creditnote_number === number) &&
          (onDate === undefined || onDate(cn.date)),
      );
      return { creditnotes: rows.map((cn) => cn.row()), page_context };
    }),
  );

  // https://www.zoho.com/books/api/v3/credit-notes/#get-a-credit-note
  router.on(
    'GET',
    '/books/v3/creditnotes/:creditnote_id',
    guard((ctx) => {
      const id = ctx.params.creditnote_id ?? '';
      const replayed = store.replayed.get('creditnotes', id);
      if (replayed) return { creditnote: replayed };
      const cn = store.creditNote(id);
      if (!cn) throw zohoErrors.notFound('Credit Note');
      return { creditnote: renderCreditNoteDetail(cn, store.render) };
    }),
  );
}
