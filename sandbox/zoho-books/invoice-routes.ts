import type { Router } from '../kit/router.js';
import { invoiceBalanceMinor } from './invoice-status.js';
import { dateRange, enumParam, listPage, SortedListings, timestampParam, type ListSpec } from './list-query.js';
import { renderInvoiceDetail, renderInvoiceRow } from './render-invoice.js';
import { toAmount } from '../kit/minor-units.js';
import { amountOf, replayedCreatedMs, replayedModifiedMs, replayedRow, textOf } from './replayed-records.js';
import type { InvoiceStatus } from './store-records.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';
import { formatZohoDate } from './zoho-timestamp.js';

const STATUSES = ['sent', 'draft', 'overdue', 'paid', 'void', 'unpaid', 'partially_paid', 'viewed'] as const;

/** `unpaid` = posted with money due; `sent` includes invoices the client has viewed. */
function hasStatus(status: string, wanted: (typeof STATUSES)[number]): boolean {
  const open: readonly string[] = ['sent', 'viewed', 'overdue', 'partially_paid'] satisfies readonly InvoiceStatus[];
  if (wanted === 'unpaid') return open.includes(status);
  if (wanted === 'sent') return status === 'sent' || status === 'viewed';
  return status === wanted;
}

/**
 * What the list filters, sorts and prints of one invoice, generated or replayed alike (amounts in
 * currency units, only compared with each other).
 */
interface InvoiceView {
  id: string;
  status: string;
  modifiedMs: number;
  createdMs: number;
  customer_id: string;
  customer_name: string;
  invoice_number: string;
  reference_number: string;
  date: string;
  due_date: string;
  total: number;
  balance: number;
  row(): Record<string, unknown>;
}

function views(store: ZohoDataStore): InvoiceView[] {
  const offset = store.organization.offsetMinutes;
  const generated = store
    .invoices()
    .filter((inv) => !store.replayed.has('invoices', inv.invoice_id))
    .map((inv): InvoiceView => ({
      id: inv.invoice_id,
      status: inv.status,
      modifiedMs: inv.modifiedMs,
      createdMs: inv.createdMs,
      customer_id: inv.customer_id,
      customer_name: inv.customer_name,
      invoice_number: inv.invoice_number,
      reference_number: inv.reference_number,
      date: inv.date,
      due_date: inv.due_date,
      total: toAmount(inv.amounts.totalMinor),
      balance: toAmount(invoiceBalanceMinor(inv, store.creditsAppliedMinor(inv.invoice_id))),
      row: () => renderInvoiceRow(inv, store.render),
    }));
  const replayed = store.replayed.all('invoices').map((raw): InvoiceView => ({
    id: textOf(raw.invoice_id),
    status: textOf(raw.status),
    modifiedMs: replayedModifiedMs(raw, offset),
    createdMs: replayedCreatedMs(raw, offset),
    customer_id: textOf(raw.customer_id),
    customer_name: textOf(raw.customer_name),
    invoice_number: textOf(raw.invoice_number),
    reference_number: textOf(raw.reference_number),
    date: textOf(raw.date),
    due_date: textOf(raw.due_date),
    total: amountOf(raw.total),
    balance: amountOf(raw.balance ?? raw.total),
    row: () => replayedRow('invoices', raw),
  }));
  return [...generated, ...replayed];
}

const SPEC: ListSpec<InvoiceView> = {
  reportName: 'Invoices',
  // Zoho's allowed sort columns; last_modified_time is deliberately absent (→ 400 code 2).
  sortColumns: {
    customer_name: (i) => i.customer_name,
    invoice_number: (i) => i.invoice_number,
    date: (i) => i.date,
    due_date: (i) => i.due_date,
    total: (i) => i.total,
    balance: (i) => i.balance,
    created_time: (i) => i.createdMs,
  },
  defaultSort: { column: 'created_time', order: 'D' },
  filters: {
    'Status.All': undefined,
    'Status.Sent': (i) => hasStatus(i.status, 'sent'),
    'Status.Draft': (i) => i.status === 'draft',
    'Status.OverDue': (i) => i.status === 'overdue',
    'Status.Paid': (i) => i.status === 'paid',
    'Status.Void': (i) => i.status === 'void',
    'Status.Unpaid': (i) => hasStatus(i.status, 'unpaid'),
    'Status.PartiallyPaid': (i) => i.status === 'partially_paid',
    'Status.Viewed': (i) => i.status === 'viewed',
    // No generated invoice has an expected payment date.
    'Date.PaymentExpectedDate': () => false,
  },
  defaultFilter: 'Status.All',
  id: (i) => i.id,
};

export function registerInvoiceRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
  const listings = new SortedListings(
    () => store.version,
    () => views(store),
  );
  // https://www.zoho.com/books/api/v3/invoices/#list-invoices
  // Summary rows only (no line_items). `last_modified_time` keeps invoices modified AT OR AFTER the given
  // instant (>=): tap-zohobooks adds one second to its saved cursor before sending it, which only makes
  // sense for an inclusive filter. Compared at whole seconds. The list is not sorted by it.
  router.on(
    'GET',
    '/books/v3/invoices',
    guard((ctx) => {
      const q = ctx.query;
      const offset = store.organization.offsetMinutes;
      const status = enumParam(q, 'status', STATUSES);
      const modifiedSince = timestampParam(q, 'last_modified_time', offset);
      const onDate = dateRange(q, 'date');
      const onDue = dateRange(q, 'due_date');
      const onCreated = dateRange(q, 'created_date');
      const customerId = q.get('customer_id') || undefined;
      const number = q.get('invoice_number') || undefined;
      const numberStarts = q.get('invoice_number_startswith') || undefined;
      const numberContains = q.get('invoice_number_contains') || undefined;
      const reference = q.get('reference_number') || undefined;
      const search = q.get('search_text')?.toLowerCase() || undefined;
      const { rows, page_context } = listPage(
        listings,
        q,
        SPEC,
        (inv) =>
          (status === undefined || hasStatus(inv.status, status)) &&
          (modifiedSince === undefined || inv.modifiedMs >= modifiedSince) &&
          (customerId === undefined || inv.customer_id === customerId) &&
          (number === undefined || inv.invoice_number === number) &&
          (numberStarts === undefined || inv.invoice_number.startsWith(numberStarts)) &&
          (numberContains === undefined || inv.invoice_number.includes(numberContains)) &&
          (reference === undefined || inv.reference_number === reference) &&
          (search === undefined ||
            [inv.invoice_number, inv.reference_number, inv.customer_name].some((s) =>
              s.toLowerCase().includes(search),
            )) &&
          (onDate === undefined || onDate(inv.date)) &&
          (onDue === undefined || onDue(inv.due_date)) &&
          (onCreated === undefined || onCreated(formatZohoDate(inv.createdMs, offset))),
      );
      return { invoices: rows.map((inv) => inv.row()), page_context };
    }),
  );

  // https://www.zoho.com/books/api/v3/invoices/#get-an-invoice
  router.on(
    'GET',
    '/books/v3/invoices/:invoice_id',
    guard((ctx) => {
      const id = ctx.params.invoice_id ?? '';
      const replayed = store.replayed.get('invoices', id);
      if (replayed) return { invoice: replayed };
      const inv = store.invoice(id);
      if (!inv) throw zohoErrors.notFound('Invoice');
      return { invoice: renderInvoiceDetail(inv, store.render) };
    }),
  );
}
