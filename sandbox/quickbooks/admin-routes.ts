import { type RouteContext, type RouteResult, Router } from '../kit/router.js';
import type { ClockSettings } from '../kit/emulator-clock.js';
import { type EmulatorState, statsOf } from './emulator-state.js';
import type { EntityKind } from './model.js';
import { type CreateInvoiceInput, type EditInput, Invalid, NotFound } from './qbo-store.js';
import { renderCustomer, renderDoc } from './render.js';
import { z } from 'zod';
import { formatZodIssues } from '../kit/zod-issues.js';
import { QboOrganisationReplay, QboRecordsReplay } from './replayed-records.js';

/**
 * Admin API (`/__admin/...`, never faulted or journaled), JSON in and out:
 *   GET  /__admin/stats                          counters (requests, throttles, token refreshes…)
 *   POST /__admin/reset {seed?, records?, customers?, creditMemos?, spanDays?}   regenerate the company
 *   GET|POST /__admin/faults {latencyMs, errorRate, rateLimitNext, errorNext, outageForMs…}
 *   GET|DELETE /__admin/journal
 *   GET|POST /__admin/clock {now?: ISO|null, advanceSeconds?, frozen?}
 *   POST /__admin/limits {ratePerMinute?, maxInFlight?, latencyMs?}
 *   GET  /__admin/tokens                          {refreshToken, refreshes}; POST /__admin/tokens/expire
 *   POST /__admin/invoices {customerId?, lines?: [{itemId?, qty, unitPrice}], gstPercent?, exchangeRate?,
 *        discountPercent?, discountAmount?, txnDate?, docNumber?, at?}          create
 *   POST /__admin/invoices/:id/edit {qty?, unitPrice?, docNumber?, dueDate?, privateNote?, at?}
 *   POST /__admin/invoices/:id/void {at?}       POST /__admin/invoices/:id/delete {at?}
 *   POST /__admin/invoices/:id/payment {amount?, at?}   (default: the whole balance)
 *   POST /__admin/credit-memos {invoiceId, amount?, apply?, at?}   POST /__admin/credit-memos/:id/delete
 *   POST /__admin/customers {displayName, currency?, billAddr?: {Line1?, City?, CountrySubDivisionCode?, Country?…}, at?}
 *   POST /__admin/customers/:id/edit {active?, displayName?, email?, at?}
 *   POST /__admin/touch {entity: Invoice|CreditMemo|Customer, ids: [...], at?}   same-second edits
 *   POST /__admin/records {entity: Invoice|CreditMemo|Customer, records: [QBO JSON]}   replayed as given
 *   POST /__admin/organisation {CompanyInfo?, Preferences?, TaxRate?: [...], TaxCode?: [...]}   in QBO's JSON
 * Errors: 400 `{error}` naming the path of a bad field (replays).
 * Errors: 404 `{error}` for unknown ids, 400 `{error}` for invalid input.
 */
export function adminRouter(state: EmulatorState, reset: (body: Record<string, unknown>) => void): Router {
  const { store } = state;
  const rc = () => store.renderContext;
  const json = (body: unknown, status = 200): RouteResult => ({ status, body });
  const guard =
    (fn: (ctx: RouteContext, body: Record<string, unknown>) => unknown) =>
    (ctx: RouteContext): RouteResult => {
      try {
        const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<string, unknown>;
        return json(fn(ctx, body));
      } catch (e) {
        if (e instanceof NotFound) return json({ error: e.message }, 404);
        if (e instanceof Invalid || e instanceof RangeError) return json({ error: e.message }, 400);
        if (e instanceof z.ZodError) return json({ error: formatZodIssues(e).join('; ') }, 400);
        throw e;
      }
    };
  const at = (b: Record<string, unknown>) => (typeof b.at === 'string' ? b.at : undefined);

  return (
    new Router()
      .on(
        'GET',
        '/__admin/stats',
        guard(() => statsOf(state)),
      )
      .on(
        'POST',
        '/__admin/reset',
        guard(
          (_c, b) => (
            reset(b),
            {
              ok: true,
              invoices: store.docs.Invoice.size,
              creditMemos: store.docs.CreditMemo.size,
              customers: store.customers.size,
            }
          ),
        ),
      )
      .on(
        'GET',
        '/__admin/faults',
        guard(() => state.faults.current),
      )
      .on(
        'POST',
        '/__admin/faults',
        guard((_c, b) => state.faults.set(b)),
      )
      .on(
        'GET',
        '/__admin/journal',
        guard((c) => state.journal.list({ since: c.query.get('since') ? Number(c.query.get('since')) : undefined })),
      )
      .on(
        'DELETE',
        '/__admin/journal',
        guard(() => (state.journal.clear(), { ok: true })),
      )
      .on(
        'GET',
        '/__admin/clock',
        guard(() => state.clock.snapshot()),
      )
      .on(
        'POST',
        '/__admin/clock',
        guard((_c, b) => state.clock.set(b as ClockSettings)),
      )
      .on(
        'POST',
        '/__admin/limits',
        guard((_c, b) => {
          state.limiter.configure({
            ratePerMinute: typeof b.ratePerMinute === 'number' ? b.ratePerMinute : undefined,
            maxInFlight: typeof b.maxInFlight === 'number' ? b.maxInFlight : undefined,
          });
          if (typeof b.latencyMs === 'number') state.latencyMs = b.latencyMs;
          return { ...state.limiter.limits, latencyMs: state.latencyMs };
        }),
      )
      .on(
        'GET',
        '/__admin/tokens',
        guard(() => ({ refreshToken: state.tokens.currentRefreshToken, refreshes: state.tokens.refreshCount })),
      )
      .on(
        'POST',
        '/__admin/tokens/expire',
        guard(() => ({ expired: state.tokens.expireAll() })),
      )
      .on(
        'POST',
        '/__admin/invoices',
        guard((_c, b) => renderDoc(store.createInvoice(b as CreateInvoiceInput), rc())),
      )
      .on(
        'POST',
        '/__admin/invoices/:id/edit',
        guard((c, b) => renderDoc(store.editInvoice(c.params.id!, b as EditInput), rc())),
      )
      .on(
        'POST',
        '/__admin/invoices/:id/void',
        guard((c, b) => renderDoc(store.voidInvoice(c.params.id!, at(b)), rc())),
      )
      .on(
        'POST',
        '/__admin/invoices/:id/delete',
        guard((c, b) => store.deleteDoc('Invoice', c.params.id!, at(b))),
      )
      .on(
        'POST',
        '/__admin/invoices/:id/payment',
        guard((c, b) =>
          renderDoc(store.recordPayment(c.params.id!, b.amount as number | string | undefined, at(b)), rc()),
        ),
      )
      .on(
        'POST',
        '/__admin/credit-memos',
        guard((_c, b) =>
          renderDoc(
            store.createCreditMemo({
              invoiceId: String(b.invoiceId),
              amount: b.amount as number | undefined,
              apply: b.apply as boolean | undefined,
              at: at(b),
            }),
            rc(),
          ),
        ),
      )
      .on(
        'POST',
        '/__admin/credit-memos/:id/delete',
        guard((c, b) => store.deleteDoc('CreditMemo', c.params.id!, at(b))),
      )
      .on(
        'POST',
        '/__admin/customers',
        guard((_c, b) =>
          renderCustomer(
            store.createCustomer({
              displayName: String(b.displayName),
              ...(typeof b.currency === 'string' ? { currency: b.currency } : {}),
              ...(b.billAddr && typeof b.billAddr === 'object'
                ? { billAddr: b.billAddr as Record<string, string> }
                : {}),
              ...(at(b) === undefined ? {} : { at: at(b) }),
            }),
            rc(),
          ),
        ),
      )
      .on(
        'POST',
        '/__admin/customers/:id/edit',
        guard((c, b) =>
          renderCustomer(
            store.editCustomer(
              c.params.id!,
              b as { active?: boolean; displayName?: string; email?: string; at?: string },
            ),
            rc(),
          ),
        ),
      )
      // Records in QBO's own JSON, stored as given and served by query, read and CDC (replayed-records.ts).
      .on(
        'POST',
        '/__admin/records',
        guard((_c, b) => {
          const body = QboRecordsReplay.parse(b);
          return { entity: body.entity, ids: store.replayed.add(body.entity, body.records) };
        }),
      )
      .on(
        'POST',
        '/__admin/organisation',
        guard((_c, b) => {
          const body = QboOrganisationReplay.parse(b);
          store.replayed.organisation = { ...store.replayed.organisation, ...body };
          return { replaced: Object.keys(body) };
        }),
      )
      .on(
        'POST',
        '/__admin/touch',
        guard((_c, b) => {
          const entity = b.entity as EntityKind;
          if (!['Invoice', 'CreditMemo', 'Customer'].includes(entity))
            throw new Invalid('entity must be Invoice, CreditMemo or Customer');
          const ids = Array.isArray(b.ids) ? b.ids.map(String) : [];
          return { touched: ids.length, at: new Date(store.touch(entity, ids, at(b))).toISOString() };
        }),
      )
  );
}
