import { z } from 'zod';
import { InvoiceInput, LifecycleStatus, Num } from '../../../src/billing/schemas/index.js';
import type { RouteContext, Router } from '../../kit/router.js';
import type { StoredInvoice } from '../billing-store.js';
import { badRequest, conflict, guarded, notFound } from '../errors.js';
import { toInvoiceRecord } from '../invoice-record.js';
import { dec, round2 } from '../../kit/minor-units.js';
import { json } from '../responses.js';
import { parseBody } from '../validate.js';
import { adminCompany } from './admin.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Admin invoice mutations, as a billing-side user would make them (all need `?company=ID`; each
 * answers the invoice record as the listing would show it, lifecycle included):
 *
 *   POST /__admin/invoices                     { invoice: <invoice input>, lifecycleStatus?: default FINALIZED }
 *                                              inserts a raw invoice (e.g. an orphan); 409 if the invoiceId exists
 *   GET  /__admin/invoices/:invoiceId          the record, also when DELETED
 *   POST /__admin/invoices/:invoiceId/void     lifecycle → VOIDED (409 if DELETED)
 *   POST /__admin/invoices/:invoiceId/delete   lifecycle → DELETED (idempotent); later upserts → 409
 *   POST /__admin/invoices/:invoiceId/payment  { amount: n > 0 } adds to invoicePaidAmount (decimal)
 *   POST /__admin/invoices/:invoiceId/patch    a partial set of invoice input fields (not invoiceId),
 *                                              e.g. { "invoiceTotal": 1 }; `null` removes an optional
 *                                              field; also { "lifecycleStatus": ... }. The result must
 *                                              still be a valid invoice input (400 otherwise).
 * Every change moves updatedAt (emulator clock); a patch that changes nothing does not.
 */
const InsertBody = z.strictObject({ invoice: InvoiceInput, lifecycleStatus: LifecycleStatus.default('FINALIZED') });
const PaymentBody = z.strictObject({ amount: Num.positive() });
const PATCHABLE = new Set(Object.keys(InvoiceInput.shape).filter((k) => k !== 'invoiceId'));

export function registerAdminInvoiceRoutes(router: Router, deps: RouteDeps): void {
  const { store, clock } = deps;
  const target = (ctx: RouteContext): { invoice: StoredInvoice; companyId: string } => {
    const companyId = adminCompany(ctx, deps);
    const id = ctx.params.invoiceId ?? '';
    const invoice = store.company(companyId).invoiceById.get(id);
    if (!invoice) throw notFound(`invoiceId: no invoice ${id} in company ${companyId}`);
    return { invoice, companyId };
  };
  const view = (inv: StoredInvoice) => json(toInvoiceRecord(inv, clock.today()));

  router.on(
    'POST',
    '/__admin/invoices',
    guarded((ctx) => {
      const companyId = adminCompany(ctx, deps);
      const body = parseBody(InsertBody, ctx.body);
      const company = store.company(companyId);
      if (company.invoiceById.has(body.invoice.invoiceId))
        throw conflict(`invoice.invoiceId: invoice ${body.invoice.invoiceId} exists`);
      return view(company.insertInvoice(store.nextId('inv'), body.invoice, body.lifecycleStatus, clock.now()));
    }),
  );

  router.on(
    'GET',
    '/__admin/invoices/:invoiceId',
    guarded((ctx) => view(target(ctx).invoice)),
  );

  router.on(
    'POST',
    '/__admin/invoices/:invoiceId/void',
    guarded((ctx) => {
      const { invoice, companyId } = target(ctx);
      if (invoice.lifecycleStatus === 'DELETED')
        throw conflict(`invoiceId: invoice ${invoice.input.invoiceId} is deleted`);
      store.company(companyId).setLifecycle(invoice, 'VOIDED', clock.now());
      return view(invoice);
    }),
  );

  router.on(
    'POST',
    '/__admin/invoices/:invoiceId/delete',
    guarded((ctx) => {
      const { invoice, companyId } = target(ctx);
      store.company(companyId).setLifecycle(invoice, 'DELETED', clock.now());
      return view(invoice);
    }),
  );

  router.on(
    'POST',
    '/__admin/invoices/:invoiceId/payment',
    guarded((ctx) => {
      const { invoice, companyId } = target(ctx);
      const { amount } = parseBody(PaymentBody, ctx.body);
      const paid = round2(dec(invoice.input.invoicePaidAmount).plus(amount));
      store.company(companyId).replaceInvoiceInput(invoice, { ...invoice.input, invoicePaidAmount: paid }, clock.now());
      return view(invoice);
    }),
  );

  router.on(
    'POST',
    '/__admin/invoices/:invoiceId/patch',
    guarded((ctx) => {
      const { invoice, companyId } = target(ctx);
      if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body))
        throw badRequest('(root): expected an object of invoice fields');
      const { lifecycleStatus, ...fields } = ctx.body as Record<string, unknown>;
      const unknown = Object.keys(fields).filter((k) => !PATCHABLE.has(k));
      if (unknown.length) throw badRequest(`${unknown[0]}: not a patchable invoice field`);
      const merged: Record<string, unknown> = { ...invoice.input };
      for (const [k, v] of Object.entries(fields)) {
        if (v === null) delete merged[k];
        else merged[k] = v;
      }
      const input = parseBody(InvoiceInput, merged);
      const status =
        lifecycleStatus === undefined
          ? undefined
          : parseBody(z.strictObject({ lifecycleStatus: LifecycleStatus }), { lifecycleStatus }).lifecycleStatus;
      const company = store.company(companyId);
      const now = clock.now();
      company.replaceInvoiceInput(invoice, input, now);
      if (status !== undefined) company.setLifecycle(invoice, status, now);
      return view(invoice);
    }),
  );
}
