import { z } from 'zod';
import { FaultConfig } from '../kit/faults.js';
import type { Router, RouteContext, RouteResult } from '../kit/router.js';
import { DocumentRuleError } from './document-ops.js';
import type { XeroEmulatorControl } from './emulator-control.js';
import { applyStoreOp, churn, type StoreOp } from './store-ops.js';
import { NotFoundError } from './xero-data-store.js';
import { XeroOrganisationReplay, XeroRecordsReplay } from './replayed-records.js';

/**
 * Admin endpoints (`/__admin/...`, never faulted or journaled), so tests and demos can act as a Xero user
 * and as Xero's operators. Bodies are JSON; a refused change answers 400 `{error}`; unknown ids 404.
 *
 *   POST /__admin/reset            {seed?}                     fresh data, tokens, limits, faults, journal, clock
 *   GET|POST /__admin/clock        {now?, advanceSeconds?, advanceMs?, frozen?}
 *   GET|POST /__admin/faults       FaultConfig (sandbox/kit/faults.ts)
 *   GET|DELETE /__admin/journal    ?since=&path=
 *   GET /__admin/stats
 *   POST /__admin/limits           {ratePerMinute?, dailyLimit?, maxConcurrent?, appRatePerMinute?, latencyMs?,
 *                                   ifModifiedSince?: 'after'|'at-or-after'}
 *   POST /__admin/day-limit        {tenantId?, used?, limit?, resetInSeconds?}   (no tenantId: every organisation)
 *   POST /__admin/tokens/expire    every access token expires now
 *   GET  /__admin/tenants
 *   GET  /__admin/tenants/:tenantId/:entity[/:id]                  raw records (invoices|credit-notes|contacts)
 *   POST /__admin/tenants/:tenantId/ops     {op, ...} or {ops:[...], sameInstant?}  (StoreOp in store-ops.ts)
 *   POST /__admin/tenants/:tenantId/churn   {count, sameInstant?}
 *   POST /__admin/records          {tenantId?, entity: Invoices|CreditNotes|Contacts, records: [Xero JSON]}
 *   POST /__admin/organisation     {tenantId?, Organisation, TaxRates?}   in Xero's JSON
 */
const ClockBody = z.strictObject({
  now: z.union([z.string(), z.number(), z.null()]).optional(),
  advanceSeconds: z.number().optional(),
  advanceMs: z.number().optional(),
  frozen: z.boolean().optional(),
});
const LimitsBody = z.strictObject({
  ratePerMinute: z.number().int().min(0).optional(),
  dailyLimit: z.number().int().min(0).optional(),
  maxConcurrent: z.number().int().min(0).optional(),
  appRatePerMinute: z.number().int().min(0).optional(),
  latencyMs: z.number().int().min(0).optional(),
  ifModifiedSince: z.enum(['after', 'at-or-after']).optional(),
});
const DayBody = z.strictObject({
  tenantId: z.string().optional(),
  used: z.number().int().min(0).optional(),
  limit: z.number().int().min(0).optional(),
  resetInSeconds: z.number().min(0).optional(),
});
const OpsBody = z.union([
  z.looseObject({ ops: z.array(z.looseObject({ op: z.string() })), sameInstant: z.boolean().optional() }),
  z.looseObject({ op: z.string() }),
]);
const ChurnBody = z.strictObject({ count: z.number().int().min(1).max(10_000), sameInstant: z.boolean().optional() });

function bad(message: string): RouteResult {
  return { status: 400, body: { error: message } };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> | RouteResult {
  const r = schema.safeParse(body ?? {});
  return r.success
    ? r.data
    : bad(r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '));
}

function isResult(v: unknown): v is RouteResult {
  return typeof v === 'object' && v !== null && 'status' in v && typeof (v as { status: unknown }).status === 'number';
}

function guarded(fn: (ctx: RouteContext) => RouteResult): (ctx: RouteContext) => RouteResult {
  return (ctx) => {
    try {
      return fn(ctx);
    } catch (e) {
      if (e instanceof DocumentRuleError) return bad(e.message);
      if (e instanceof NotFoundError) return { status: 404, body: { error: e.message } };
      throw e;
    }
  };
}

export function registerAdminRoutes(admin: Router, c: XeroEmulatorControl): void {
  admin.on('POST', '/__admin/reset', (ctx) => {
    const body = (ctx.body ?? {}) as { seed?: number | string };
    c.reset(body.seed);
    return { status: 200, body: { ok: true, stats: c.stats() } };
  });
  admin.on('GET', '/__admin/clock', () => ({ status: 200, body: c.clock.snapshot() }));
  admin.on(
    'POST',
    '/__admin/clock',
    guarded((ctx) => {
      const b = parse(ClockBody, ctx.body);
      if (isResult(b)) return b;
      try {
        return { status: 200, body: c.clock.set(b) };
      } catch (e) {
        return bad((e as Error).message);
      }
    }),
  );
  admin.on('GET', '/__admin/faults', () => ({ status: 200, body: c.faults.current }));
  admin.on('POST', '/__admin/faults', (ctx) => {
    const b = parse(FaultConfig, ctx.body);
    if (isResult(b)) return b;
    return { status: 200, body: c.faults.set(b) };
  });
  admin.on('GET', '/__admin/journal', (ctx) => {
    const since = ctx.query.get('since');
    return {
      status: 200,
      body: c.journal.list({ since: since ? Number(since) : undefined, path: ctx.query.get('path') ?? undefined }),
    };
  });
  admin.on('DELETE', '/__admin/journal', () => {
    c.journal.clear();
    return { status: 200, body: { ok: true } };
  });
  admin.on('GET', '/__admin/stats', () => ({ status: 200, body: c.stats() }));
  admin.on('POST', '/__admin/limits', (ctx) => {
    const b = parse(LimitsBody, ctx.body);
    if (isResult(b)) return b;
    c.configure(b);
    return { status: 200, body: c.stats().limits };
  });
  admin.on(
    'POST',
    '/__admin/day-limit',
    guarded((ctx) => {
      const b = parse(DayBody, ctx.body);
      if (isResult(b)) return b;
      const ids = b.tenantId ? [c.store.tenant(b.tenantId.toLowerCase()).profile.tenantId] : c.store.tenantIds;
      return { status: 200, body: Object.fromEntries(ids.map((id) => [id, c.limiter.setDay(id, b)])) };
    }),
  );
  admin.on('POST', '/__admin/tokens/expire', () => ({ status: 200, body: { expired: c.tokens.expireAll() } }));
  admin.on('GET', '/__admin/tenants', () => ({
    status: 200,
    body: c.store.tenantIds.map((id) => ({
      tenantId: id,
      name: c.store.tenant(id).organisation.Name,
      baseCurrency: c.store.tenant(id).organisation.BaseCurrency,
      invoices: c.store.invoices(id).length,
      creditNotes: c.store.creditNotes(id).length,
      contacts: c.store.contacts(id).length,
    })),
  }));
  const records = guarded((ctx) => {
    const t = (ctx.params.tenantId ?? '').toLowerCase();
    const id = ctx.params.id;
    switch (ctx.params.entity) {
      case 'invoices':
        return { status: 200, body: id ? c.store.invoice(t, id) : c.store.invoices(t) };
      case 'credit-notes':
        return { status: 200, body: id ? c.store.creditNote(t, id) : c.store.creditNotes(t) };
      case 'contacts':
        return { status: 200, body: id ? c.store.contact(t, id) : c.store.contacts(t) };
      default:
        return { status: 404, body: { error: `unknown entity ${ctx.params.entity ?? ''}` } };
    }
  });
  // Records and the organisation in Xero's own JSON, served as Xero serves them (replayed-records.ts).
  // `tenantId` defaults to the first organisation.
  const tenantOf = (id: string | undefined): string => (id ?? c.store.tenantIds[0] ?? '').toLowerCase();
  admin.on(
    'POST',
    '/__admin/records',
    guarded((ctx) => {
      const b = parse(XeroRecordsReplay, ctx.body);
      if (isResult(b)) return b;
      return {
        status: 200,
        body: { entity: b.entity, ids: c.store.replay(tenantOf(b.tenantId), b.entity, b.records) },
      };
    }),
  );
  admin.on(
    'POST',
    '/__admin/organisation',
    guarded((ctx) => {
      const b = parse(XeroOrganisationReplay, ctx.body);
      if (isResult(b)) return b;
      const tenantId = tenantOf(b.tenantId);
      c.store.replayOrganisation(tenantId, b.Organisation, b.TaxRates);
      return { status: 200, body: { tenantId } };
    }),
  );
  admin.on('GET', '/__admin/tenants/:tenantId/:entity', records);
  admin.on('GET', '/__admin/tenants/:tenantId/:entity/:id', records);
  admin.on(
    'POST',
    '/__admin/tenants/:tenantId/ops',
    guarded((ctx) => {
      const t = (ctx.params.tenantId ?? '').toLowerCase();
      const b = parse(OpsBody, ctx.body);
      if (isResult(b)) return b;
      if ('ops' in b && Array.isArray(b.ops)) {
        const ops = b.ops as unknown as StoreOp[];
        const run = () => ops.map((op) => applyStoreOp(c.store, t, op));
        return { status: 200, body: { results: b.sameInstant === false ? run() : c.store.batch(run) } };
      }
      return { status: 200, body: applyStoreOp(c.store, t, b as unknown as StoreOp) };
    }),
  );
  admin.on(
    'POST',
    '/__admin/tenants/:tenantId/churn',
    guarded((ctx) => {
      const b = parse(ChurnBody, ctx.body);
      if (isResult(b)) return b;
      return {
        status: 200,
        body: { changed: churn(c.store, (ctx.params.tenantId ?? '').toLowerCase(), b.count, b.sameInstant ?? true) },
      };
    }),
  );
}
