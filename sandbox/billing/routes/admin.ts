import { z } from 'zod';
import type { FaultConfigInput, FaultInjector } from '../../kit/faults.js';
import { FaultConfig } from '../../kit/faults.js';
import type { Journal } from '../../kit/journal.js';
import type { RouteContext, Router } from '../../kit/router.js';
import { formatServiceTimestamp } from '../service-timestamp.js';
import { badRequest, guarded, notFound } from '../errors.js';
import { json } from '../responses.js';
import { parseBody } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Admin endpoints (`/__admin/...`): never faulted, never journaled, no key needed. Company-scoped
 * admin calls choose the company with the `?company=ID` query parameter (required; the company must
 * own some key). Answers are plain JSON, errors the usual `{error, message}` envelope.
 *
 *   POST /__admin/reset                 wipe all company data, re-seed setup data, clear the journal,
 *                                       restore the start-time faults, return the clock to real time
 *   GET  /__admin/clock                 { now, serviceTimestamp, today, isSet }
 *   POST /__admin/clock                 { "now": "<ISO-8601>" | null } and/or { "advanceMs": n }
 *   GET  /__admin/faults                current fault config
 *   POST /__admin/faults                FaultConfigInput; replaces the whole config
 *   GET  /__admin/journal?since=&path=  { entries: JournalEntry[] } (seq > since, exact path)
 *   GET  /__admin/stats                 per-company counts
 * Invoice mutations: see admin-invoices.ts.
 */
export interface AdminDeps extends RouteDeps {
  faults: FaultInjector;
  journal: Journal;
  initialFaults: FaultConfigInput;
}

/** The company named by `?company=`, which must own some key. */
export function adminCompany(ctx: RouteContext, deps: RouteDeps): string {
  const company = ctx.query.get('company');
  if (!company) throw badRequest('company: the ?company=ID query parameter is required');
  if (!deps.keys.companies().includes(company)) throw notFound(`company: no company ${company}`);
  return company;
}

const ClockBody = z
  .strictObject({
    now: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
    advanceMs: z.number().int().optional(),
    /** true stops the clock (at `now` when given); false lets it tick again. */
    frozen: z.boolean().optional(),
  })
  .refine((b) => b.now !== undefined || b.advanceMs !== undefined || b.frozen !== undefined, {
    message: 'give now, advanceMs and/or frozen',
  });

const JournalQuery = z.strictObject({
  since: z.coerce.number<string>().int().min(0).optional(),
  path: z.string().min(1).optional(),
});

export function registerAdminRoutes(router: Router, deps: AdminDeps): void {
  const { store, clock, faults, journal, keys } = deps;
  const clockView = () => {
    const now = clock.now();
    return {
      now: new Date(now).toISOString(),
      serviceTimestamp: formatServiceTimestamp(now),
      today: clock.today(),
      isSet: clock.isSet,
    };
  };

  router.on(
    'POST',
    '/__admin/reset',
    guarded(() => {
      store.reset();
      journal.clear();
      faults.set(deps.initialFaults);
      clock.set({ now: null });
      return json({ ok: true });
    }),
  );

  router.on(
    'GET',
    '/__admin/clock',
    guarded(() => json(clockView())),
  );
  router.on(
    'POST',
    '/__admin/clock',
    guarded((ctx) => {
      const body = parseBody(ClockBody, ctx.body);
      clock.set({ now: body.now, advanceMs: body.advanceMs, frozen: body.frozen });
      return json(clockView());
    }),
  );

  router.on(
    'GET',
    '/__admin/faults',
    guarded(() => json(faults.current)),
  );
  router.on(
    'POST',
    '/__admin/faults',
    guarded((ctx) => {
      const config = parseBody(FaultConfig, ctx.body ?? {});
      return json(faults.set(config));
    }),
  );

  router.on(
    'GET',
    '/__admin/journal',
    guarded((ctx) => {
      const q = parseBody(JournalQuery, Object.fromEntries(ctx.query));
      return json({ entries: journal.list({ since: q.since, path: q.path }) });
    }),
  );

  // The seeded billing-setup data of a company (fee components, tags, rate cards, contracts), so a
  // user or a test can find ids to call endpoints 11–16 with.
  router.on(
    'GET',
    '/__admin/seed',
    guarded((ctx) => {
      const { setup } = store.company(adminCompany(ctx, deps));
      return json({
        feeComponents: setup.feeComponents,
        tags: setup.tags,
        ratecards: setup.ratecards,
        contracts: setup.contracts,
      });
    }),
  );

  router.on(
    'GET',
    '/__admin/stats',
    guarded(() => {
      const companies: Record<string, unknown> = {};
      for (const id of keys.companies()) {
        const c = store.company(id);
        companies[id] = {
          invoices: c.invoices.length,
          creditNotes: c.creditNotes.size,
          customers: c.customers.length,
          usageDrivers: c.usageDrivers.length,
          contracts: c.setup.contracts.length,
        };
      }
      return json({ companies });
    }),
  );
}
