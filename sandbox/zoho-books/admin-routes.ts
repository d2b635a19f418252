import { z } from 'zod';
import { ZohoOrganisationReplay, ZohoRecordsReplay } from './replayed-records.js';
import { formatZodIssues } from '../kit/zod-issues.js';
import { FaultConfig, type FaultInjector } from '../kit/faults.js';
import type { Journal } from '../kit/journal.js';
import type { RouteContext, RouteResult, Router } from '../kit/router.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { GenerateDataOptions } from './generate-data.js';
import type { ZohoRateLimiter } from './rate-limiter.js';
import type { ZohoTokenRegistry } from './token-registry.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoResult } from './zoho-error.js';
import { MutationError, parseMutationBatch } from './zoho-mutation.js';

/**
 * Admin endpoints (`/__admin/...`): never rate limited, faulted, journaled or authenticated.
 *
 *   GET    /__admin/stats               refresh count, request counts, rate-limit usage, record counts
 *   POST   /__admin/reset               {seed?, records?, customers?, vendors?, creditNotes?, from?, to?}:
 *                                       regenerate data, revoke access tokens, zero counters, clear journal,
 *                                       restore start-time faults and clock
 *   GET    /__admin/clock               {now, frozen, today}
 *   POST   /__admin/clock               {now?: ISO | null, advanceSeconds?, advanceMs?, frozen?}
 *   GET    /__admin/faults              current FaultConfig
 *   POST   /__admin/faults              FaultConfigInput (replaces the whole config)
 *   GET    /__admin/journal?since=&path=  {entries}
 *   DELETE /__admin/journal             clears it
 *   POST   /__admin/mutate              [op, ...] or {ops: [...], at?: ISO}: {results}; one second for all
 *   POST   /__admin/records             {entity: invoices|creditnotes|contacts, records: [Zoho detail JSON]}: {entity, ids}
 *   POST   /__admin/organisation        {organization, taxes?, tax_groups?} in Zoho's JSON: {organization_id}
 *   POST   /__admin/expire-tokens       expires every access token now: {expired}
 *   POST   /__admin/tokens              {ttlSeconds?}: a fresh access token not counted as a refresh
 *   POST   /__admin/limits              {ratePerMinute?, dailyLimit?, resetCounters?}
 *   GET    /__admin/credentials         client id/secret, refresh token, organization id, URLs
 */
export interface AdminDeps {
  store: ZohoDataStore;
  clock: EmulatorClock;
  faults: FaultInjector;
  journal: Journal;
  tokens: ZohoTokenRegistry;
  limiter: ZohoRateLimiter;
  reset(options: GenerateDataOptions): void;
  stats(): object;
  urls(): { url: string; apiBase: string; tokenUrl: string };
}

class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw new AdminError(400, 2, formatZodIssues(r.error).join('; '));
  return r.data;
}

const ok = (body: unknown): RouteResult => zohoResult(200, body);

function guarded(fn: (ctx: RouteContext) => RouteResult): (ctx: RouteContext) => RouteResult {
  return (ctx) => {
    try {
      return fn(ctx);
    } catch (e) {
      if (e instanceof AdminError) return zohoResult(e.status, { code: e.code, message: e.message });
      if (e instanceof MutationError)
        return zohoResult(e.status, { code: e.status === 404 ? 1002 : 2, message: e.message });
      if (e instanceof z.ZodError) return zohoResult(400, { code: 2, message: formatZodIssues(e).join('; ') });
      throw e;
    }
  };
}

const ResetBody = z.strictObject({
  seed: z.union([z.number().int(), z.string()]).optional(),
  records: z.number().int().min(0).max(1_000_000).optional(),
  customers: z.number().int().min(1).max(100_000).optional(),
  vendors: z.number().int().min(0).max(10_000).optional(),
  creditNotes: z.number().int().min(0).max(1_000_000).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});
const ClockBody = z.strictObject({
  now: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
  advanceSeconds: z.number().optional(),
  advanceMs: z.number().int().optional(),
  frozen: z.boolean().optional(),
});
const JournalQuery = z.strictObject({
  since: z.coerce.number<string>().int().min(0).optional(),
  path: z.string().min(1).optional(),
});
const TokenBody = z.strictObject({ ttlSeconds: z.number().int().min(0).optional() });
const LimitsBody = z.strictObject({
  ratePerMinute: z.number().int().min(0).optional(),
  dailyLimit: z.number().int().min(0).optional(),
  resetCounters: z.boolean().optional(),
});

export function registerAdminRoutes(router: Router, deps: AdminDeps): void {
  const { store, clock, faults, journal, tokens, limiter } = deps;
  const clockView = () => ({ ...clock.snapshot(), today: store.today() });

  router.on(
    'GET',
    '/__admin/stats',
    guarded(() => ok(deps.stats())),
  );
  router.on(
    'POST',
    '/__admin/reset',
    guarded((ctx) => {
      deps.reset(parse(ResetBody, ctx.body));
      return ok({ ok: true, ...deps.stats() });
    }),
  );
  router.on(
    'GET',
    '/__admin/clock',
    guarded(() => ok(clockView())),
  );
  router.on(
    'POST',
    '/__admin/clock',
    guarded((ctx) => {
      clock.set(parse(ClockBody, ctx.body));
      return ok(clockView());
    }),
  );
  router.on(
    'GET',
    '/__admin/faults',
    guarded(() => ok(faults.current)),
  );
  router.on(
    'POST',
    '/__admin/faults',
    guarded((ctx) => ok(faults.set(parse(FaultConfig, ctx.body)))),
  );
  router.on(
    'GET',
    '/__admin/journal',
    guarded((ctx) => ok({ entries: journal.list(parse(JournalQuery, Object.fromEntries(ctx.query))) })),
  );
  router.on(
    'DELETE',
    '/__admin/journal',
    guarded(() => {
      journal.clear();
      return ok({ ok: true });
    }),
  );
  router.on(
    'POST',
    '/__admin/mutate',
    guarded((ctx) => ok({ results: store.mutate(parseMutationBatch(ctx.body)) })),
  );
  // Records in Zoho's own detail JSON, stored as given and served by the list, detail and
  // last_modified_time reads as Zoho serves them (replayed-records.ts).
  router.on(
    'POST',
    '/__admin/records',
    guarded((ctx) => {
      const body = ZohoRecordsReplay.parse(ctx.body);
      return ok({ entity: body.entity, ids: store.replayed.add(body.entity, body.records) });
    }),
  );
  router.on(
    'POST',
    '/__admin/organisation',
    guarded((ctx) => {
      store.replayed.organisation = ZohoOrganisationReplay.parse(ctx.body);
      return ok({ organization_id: store.organizationId });
    }),
  );
  router.on(
    'POST',
    '/__admin/expire-tokens',
    guarded(() => ok({ expired: tokens.expireAll() })),
  );
  router.on(
    'POST',
    '/__admin/tokens',
    guarded((ctx) => {
      const { ttlSeconds = tokens.accessTokenTtlSeconds } = parse(TokenBody, ctx.body);
      return ok({ access_token: tokens.issue(ttlSeconds), expires_in: ttlSeconds, token_type: 'Bearer' });
    }),
  );
  router.on(
    'POST',
    '/__admin/limits',
    guarded((ctx) => {
      const { resetCounters, ...limits } = parse(LimitsBody, ctx.body);
      limiter.configure(limits);
      if (resetCounters) limiter.reset();
      return ok(limiter.current);
    }),
  );
  router.on(
    'GET',
    '/__admin/credentials',
    guarded(() => {
      const c = tokens.credentials;
      const u = deps.urls();
      return ok({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        refresh_token: c.refreshToken,
        organization_id: store.organization.organization_id,
        token_url: u.tokenUrl,
        api_base: u.apiBase,
        api_domain: u.url,
      });
    }),
  );
}
