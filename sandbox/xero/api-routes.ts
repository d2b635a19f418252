import { TRACKING_CATEGORIES } from './tracking.js';
import { randomUUID } from 'node:crypto';
import { minimalPdf } from '../kit/minimal-pdf.js';
import type { Router, RouteContext, RouteResult } from '../kit/router.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { listRecords, ListQueryError, type IfModifiedSinceMode, type ListOptions } from './list-query.js';
import type { TenantHandler } from './vendor-guard.js';
import { msDate } from './xero-date.js';
import { NotFoundError, type XeroDataStore } from './xero-data-store.js';
import { xeroErrors } from './xero-errors.js';

/**
 * The Accounting API routes the connector reads, under /api.xro/2.0
 * (https://developer.xero.com/documentation/api/accounting/invoices and its siblings):
 * GET /Invoices (+ /{InvoiceID|InvoiceNumber}, as PDF to `Accept: application/pdf`), /CreditNotes (+ /{id}, PDF too), /Contacts (+ /{id}), /TaxRates,
 * /Organisation. Lists follow list-query.ts; responses use Xero's envelope
 * `{Id, Status:"OK", ProviderName, DateTimeUTC:"/Date(ms)/", pagination?, <Collection>: [...]}`.
 */
export interface ApiDeps {
  store: XeroDataStore;
  clock: EmulatorClock;
  ifModifiedSince: () => IfModifiedSinceMode;
}

type Guard = (handler: TenantHandler, root?: string) => (ctx: RouteContext) => Promise<RouteResult>;

export function envelope(
  clockMs: number,
  collection: string,
  items: unknown[],
  pagination?: unknown,
): Record<string, unknown> {
  return {
    Id: randomUUID(),
    Status: 'OK',
    ProviderName: 'erp-billing-sync sandbox',
    DateTimeUTC: msDate(clockMs, false),
    ...(pagination ? { pagination } : {}),
    [collection]: items,
  };
}

function header(ctx: RouteContext, name: string): string | undefined {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function listed(
  deps: ApiDeps,
  collection: string,
  fetch: (tenantId: string) => Array<{ UpdatedDateUTC: string }>,
  o: Omit<ListOptions, 'query' | 'ifModifiedSince' | 'mode'>,
): TenantHandler {
  return (ctx, tenantId) => {
    try {
      const r = listRecords(fetch(tenantId), {
        ...o,
        query: ctx.query,
        ifModifiedSince: header(ctx, 'if-modified-since'),
        mode: deps.ifModifiedSince(),
      });
      return { status: 200, body: envelope(deps.clock.now(), collection, r.items, r.pagination) };
    } catch (e) {
      if (e instanceof ListQueryError)
        return e.kind === 'validation' ? xeroErrors.validation([e.message]) : xeroErrors.queryParse(e.message);
      throw e;
    }
  };
}

function single(deps: ApiDeps, collection: string, find: (tenantId: string, id: string) => unknown): TenantHandler {
  return (ctx, tenantId) => {
    try {
      const found = find(tenantId, ctx.params.id ?? '');
      if (pdfAsked(ctx) && collection !== 'Contacts') return pdfOf(collection, found);
      return { status: 200, body: envelope(deps.clock.now(), collection, [found]) };
    } catch (e) {
      if (e instanceof NotFoundError) return xeroErrors.notFound();
      throw e;
    }
  };
}

/**
 * Invoices and credit notes are served as PDF to `Accept: application/pdf`
 * (https://developer.xero.com/documentation/api/accounting/invoices#get-invoices).
 */
function pdfAsked(ctx: RouteContext): boolean {
  return /application\/pdf/i.test(header(ctx, 'accept') ?? '');
}

function pdfOf(collection: string, doc: unknown): RouteResult {
  const d = doc as { InvoiceNumber?: string; CreditNoteNumber?: string; Total?: number; CurrencyCode?: string };
  return {
    status: 200,
    headers: { 'content-type': 'application/pdf' },
    text: minimalPdf([
      `${collection === 'Invoices' ? 'Invoice' : 'Credit note'} ${d.InvoiceNumber ?? d.CreditNoteNumber ?? ''}`,
      `Total ${d.Total ?? ''} ${d.CurrencyCode ?? ''}`,
      'Xero sandbox',
    ]),
  };
}

export function registerApiRoutes(router: Router, guard: Guard, deps: ApiDeps): void {
  const { store } = deps;
  const base = '/api.xro/2.0';
  const documents = {
    statusField: 'Status' as const,
    hiddenByDefault: 'DELETED',
    supportsIncludeArchived: false,
    summaryWithoutPage: true,
  };
  router.on(
    'GET',
    `${base}/Invoices`,
    guard(
      listed(deps, 'Invoices', (t) => store.invoices(t), {
        ...documents,
        supportsStatuses: true,
        idField: 'InvoiceID',
      }),
    ),
  );
  router.on('GET', `${base}/Invoices/:id`, guard(single(deps, 'Invoices', (t, id) => store.invoice(t, id))));
  // The CreditNotes endpoint has no `Statuses` parameter in the spec: a caller filters by `where`.
  router.on(
    'GET',
    `${base}/CreditNotes`,
    guard(listed(deps, 'CreditNotes', (t) => store.creditNotes(t), { ...documents, supportsStatuses: false })),
  );
  router.on('GET', `${base}/CreditNotes/:id`, guard(single(deps, 'CreditNotes', (t, id) => store.creditNote(t, id))));
  router.on(
    'GET',
    `${base}/Contacts`,
    guard(
      listed(deps, 'Contacts', (t) => store.contacts(t), {
        statusField: 'ContactStatus',
        hiddenByDefault: 'ARCHIVED',
        supportsStatuses: false,
        supportsIncludeArchived: true,
        summaryWithoutPage: false,
        idField: 'ContactID',
      }),
    ),
  );
  router.on('GET', `${base}/Contacts/:id`, guard(single(deps, 'Contacts', (t, id) => store.contact(t, id))));
  router.on(
    'GET',
    `${base}/TaxRates`,
    guard((_ctx, t) => ({ status: 200, body: envelope(deps.clock.now(), 'TaxRates', [...store.taxRates(t)]) })),
  );
  // https://developer.xero.com/documentation/api/accounting/trackingcategories: every generated
  // organisation tracks by the same two categories (tracking.ts), each ACTIVE with its ACTIVE options.
  router.on(
    'GET',
    `${base}/TrackingCategories`,
    guard(() => ({
      status: 200,
      body: envelope(
        deps.clock.now(),
        'TrackingCategories',
        TRACKING_CATEGORIES.map((c) => ({
          TrackingCategoryID: c.TrackingCategoryID,
          Name: c.Name,
          Status: 'ACTIVE',
          Options: c.Options.map((o) => ({ ...o, Status: 'ACTIVE' })),
        })),
      ),
    })),
  );
  router.on(
    'GET',
    `${base}/Organisation`,
    guard((_ctx, t) => ({
      status: 200,
      body: envelope(deps.clock.now(), 'Organisations', [store.tenant(t).organisation]),
    })),
  );
}
