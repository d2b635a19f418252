import {
  InvoiceListQuery,
  InvoiceUpsertBody,
  type InvoiceInput,
  type LifecycleStatus,
} from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import type { BillingStore, StoredInvoice } from '../billing-store.js';
import { conflict, guarded } from '../errors.js';
import { toInvoiceRecord } from '../invoice-record.js';
import { listInvoices } from '../invoice-listing.js';
import { emptyOk, envelopeOk } from '../responses.js';
import { parseBody, parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Endpoint 1 (POST /external/invoice/upsert) and endpoint 5 (GET /external/invoices).
 *
 * A6: the upsert key is (company of the key, invoiceId). A second upsert replaces the stored fields;
 * id, createdAt and lifecycle stay; updatedAt moves only when the stored content changed.
 * A7: new invoices are FINALIZED; an upsert never changes the lifecycle (VOIDED stays VOIDED);
 * upserting an invoice DELETED in billing → 409.
 */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

export function applyInvoiceUpsert(
  store: BillingStore,
  companyId: string,
  input: InvoiceInput,
  lifecycleForNew: LifecycleStatus = 'FINALIZED',
): { outcome: UpsertOutcome; invoice: StoredInvoice } {
  const company = store.company(companyId);
  const now = store.clock.now();
  const existing = company.invoiceById.get(input.invoiceId);
  if (!existing) {
    return { outcome: 'created', invoice: company.insertInvoice(store.nextId('inv'), input, lifecycleForNew, now) };
  }
  if (existing.lifecycleStatus === 'DELETED') {
    throw conflict(`invoice.invoiceId: invoice ${input.invoiceId} was deleted in billing and cannot be upserted`);
  }
  const changed = company.replaceInvoiceInput(existing, input, now);
  return { outcome: changed ? 'updated' : 'unchanged', invoice: existing };
}

export function registerInvoiceRoutes(router: Router, { store, clock, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/external/invoice/upsert',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const { invoice } = parseBody(InvoiceUpsertBody, ctx.body);
      applyInvoiceUpsert(store, companyId, invoice);
      return emptyOk();
    }),
  );

  router.on(
    'GET',
    '/external/invoices',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(InvoiceListQuery, ctx.query);
      const today = clock.today();
      const page = listInvoices(store.company(companyId), q, today);
      return envelopeOk({ ...page, docs: page.docs.map((inv) => toInvoiceRecord(inv, today)) });
    }),
  );
}
