/**
 * Xero Accounting API 2.0 emulator: a local HTTP sandbox of what the connector reads, over seeded data
 * that changes over time. https://developer.xero.com/documentation/api/accounting/overview
 *
 * What it reproduces: `xero-tenant-id` required; `GET /connections`;
 * XML unless `Accept: application/json`; `If-Modified-Since` (UTC) against UpdatedDateUTC; page/pageSize and
 * the `pagination` block, line items only when `page` is set; `/Date(ms+0000)/` dates; `where`, `Statuses`,
 * `includeArchived`, `order`; 429 with Retry-After and X-Rate-Limit-Problem (minute, day, concurrent);
 * `X-*Limit-Remaining` on every response; ValidationException/QueryParseException and 401/403 problem bodies;
 * plain-text 404/503; single-use rotating refresh tokens at `POST /connect/token`.
 * See README.md beside the connector for the admin endpoints and defaults.
 */
import type { EmulatorOptions } from '../kit/emulator-options.js';
import { FaultInjector } from '../kit/faults.js';
import { Journal } from '../kit/journal.js';
import { Router } from '../kit/router.js';
import { startEmulatorServer } from '../kit/emulator-server.js';
import { registerAdminRoutes } from './admin-routes.js';
import { registerApiRoutes } from './api-routes.js';
import type { CurrencyRateConvention } from './currency-rate.js';
import { EmulatorClock, type ClockSettings } from '../kit/emulator-clock.js';
import type { XeroEmulatorControl, XeroEmulatorStats } from './emulator-control.js';
import { generateData } from './generate-data.js';
import { registerIdentityRoutes, XERO_DECISION_PATH } from './identity-routes.js';
import { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { IfModifiedSinceMode } from './list-query.js';
import { XeroRateLimiter, type RateLimits } from './rate-limiter.js';
import { XERO_SANDBOX_DEFAULTS as D } from './sandbox-defaults.js';
import { SeededRandom } from '../kit/seeded-random.js';
import { DEFAULT_TENANTS, type TenantProfile } from './tenants.js';
import { XeroTokenRegistry } from './token-registry.js';
import { createGuard } from './vendor-guard.js';
import { XeroDataStore } from './xero-data-store.js';
import { xeroErrors } from './xero-errors.js';
import { WebhookSender } from '../kit/webhook-sender.js';
import { registerWebhookAdminRoutes } from '../kit/webhook-admin-routes.js';
import { applyXeroChanges } from './apply-changes.js';
import { xeroWebhooks } from './webhooks.js';

/** Xero's options; the shared ones default to XERO_SANDBOX_DEFAULTS (seed 1, 120 invoices per organisation, 60 requests/minute, 30-minute tokens). */
export interface XeroEmulatorOptions extends EmulatorOptions {
  /** Contacts per organisation. @defaultValue 24 */
  contacts?: number;
  /** Credit notes per organisation. @defaultValue 30 */
  creditNotes?: number;
  /** Organisations. @defaultValue DEFAULT_TENANTS (India/INR and Australia/AUD) */
  tenants?: readonly TenantProfile[];
  /** Latest generated modification instant. @defaultValue "2025-03-01T00:00:00.000Z" */
  anchor?: string;
  /** @defaultValue 5000 */
  dailyLimit?: number;
  /** @defaultValue 5 */
  maxConcurrent?: number;
  /** @defaultValue 10000 */
  appRatePerMinute?: number;
  /** Latency of every API call, held inside the concurrency slot. @defaultValue 0 */
  latencyMs?: number;
  /** How If-Modified-Since compares (list-query.ts). @defaultValue "after" */
  ifModifiedSince?: IfModifiedSinceMode;
  /** What CurrencyRate means (currency-rate.ts). @defaultValue "foreign-per-base" */
  currencyRateConvention?: CurrencyRateConvention;
  /** @defaultValue real time, ticking */
  clock?: ClockSettings;
  journalMax?: number;
  /** Redirect URIs the authorize page accepts besides loopback ones (any port). */
  redirectUris?: string[];
}

export interface XeroEmulator extends XeroEmulatorControl {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** `${url}/api.xro/2.0`: the connector's `baseUrl`. */
  apiBase: string;
  /** `${url}/connect/token`: the connector's `tokenUrl`. */
  tokenUrl: string;
  /** The organisations' tenant ids, in order (INR first). */
  tenantIds: string[];
  /** The webhook sender (`/__admin/webhooks`): every change the store records, as Xero delivers it. */
  webhooks: WebhookSender;
  close(): Promise<void>;
}

export async function startXeroEmulator(options: XeroEmulatorOptions = {}): Promise<XeroEmulator> {
  const seed = options.seed ?? D.seed;
  const convention = options.currencyRateConvention ?? 'foreign-per-base';
  const tenants = options.tenants ?? DEFAULT_TENANTS;
  const data = (s: number | string) =>
    generateData({
      seed: s,
      records: options.records ?? D.records,
      contacts: options.contacts ?? D.contacts,
      creditNotes: options.creditNotes ?? D.creditNotes,
      tenants,
      anchor: options.anchor ?? D.anchor,
      days: D.days,
      convention,
    });
  const clock = new EmulatorClock(options.clock ?? {});
  const store = new XeroDataStore(data(seed), clock, convention, seed);
  const faultRandom = new SeededRandom(`${String(seed)}:faults`);
  const faults = new FaultInjector(options.faults ?? {}, () => faultRandom.next());
  const journal = new Journal(options.journalMax);
  const tokens = new XeroTokenRegistry(
    {
      clientId: options.clientId ?? D.clientId,
      clientSecret: options.clientSecret ?? D.clientSecret,
      refreshToken: options.refreshToken ?? D.refreshToken,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? D.accessTokenTtlSeconds,
    },
    clock,
    new SeededRandom(`${String(seed)}:tokens`),
  );
  const initialLimits: RateLimits = {
    ratePerMinute: options.ratePerMinute ?? D.ratePerMinute,
    dailyLimit: options.dailyLimit ?? D.dailyLimit,
    maxConcurrent: options.maxConcurrent ?? D.maxConcurrent,
    appRatePerMinute: options.appRatePerMinute ?? D.appRatePerMinute,
  };
  const limiter = new XeroRateLimiter({ ...initialLimits }, clock);
  const settings = {
    latencyMs: options.latencyMs ?? 0,
    ifModifiedSince: options.ifModifiedSince ?? ('after' as IfModifiedSinceMode),
  };
  const counters = { requests: 0, tokenCalls: 0 };

  const codes = new AuthorizationCodes({
    vendor: 'Xero sandbox',
    clientId: options.clientId ?? D.clientId,
    clientSecret: options.clientSecret ?? D.clientSecret,
    redirectUris: options.redirectUris,
    // "The code is only valid for 5 minutes": https://developer.xero.com/documentation/guides/oauth2/auth-flow/
    codeTtlMs: 300_000,
    pkce: true,
    // The person ticks the organisations to connect; the grant reaches those.
    choose: 'many',
    organisations: () => store.tenantIds.map((id) => ({ id, name: store.tenant(id).organisation.Name })),
    decisionPath: XERO_DECISION_PATH,
    clock,
    // Xero shows an error page and does not redirect: https://developer.xero.com/documentation/guides/oauth2/troubleshooting/
    errorPage: (problem, detail) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>Xero | Error</title></head><body><h1>Sorry, something went wrong</h1><p>Error: ${
        problem === 'invalid_redirect_uri' ? 'unauthorized_client' : 'invalid_client'
      }</p><p>${problem === 'invalid_redirect_uri' ? 'Invalid redirect_uri' : 'Unknown client or client not enabled'}</p><p>${detail.replace(
        /[&<>"']/g,
        (c) => `&#${c.charCodeAt(0)};`,
      )}</p></body></html>`,
  });

  const control: XeroEmulatorControl = {
    store,
    clock,
    faults,
    journal,
    tokens,
    codes,
    limiter,
    stats: (): XeroEmulatorStats => ({
      requests: counters.requests,
      tokenCalls: counters.tokenCalls,
      tokens: { ...tokens.stats },
      rateLimited: { ...limiter.refused },
      limits: { ...limiter.limits, ...settings },
      usage: limiter.snapshot(),
      records: Object.fromEntries(
        store.tenantIds.map((id) => [
          id,
          {
            invoices: store.invoices(id).length,
            creditNotes: store.creditNotes(id).length,
            contacts: store.contacts(id).length,
          },
        ]),
      ),
    }),
    configure: (c) => {
      const { latencyMs, ifModifiedSince, ...limits } = c;
      limiter.limits = { ...limiter.limits, ...limits };
      if (latencyMs !== undefined) settings.latencyMs = latencyMs;
      if (ifModifiedSince !== undefined) settings.ifModifiedSince = ifModifiedSince;
    },
    reset: (newSeed) => {
      store.load(data(newSeed ?? seed), newSeed ?? seed);
      tokens.reset();
      limiter.limits = { ...initialLimits };
      limiter.reset();
      faults.set(options.faults ?? {});
      journal.clear();
      clock.set({ now: null, frozen: false });
      if (options.clock) clock.set(options.clock);
      settings.latencyMs = options.latencyMs ?? 0;
      settings.ifModifiedSince = options.ifModifiedSince ?? 'after';
      counters.requests = 0;
      counters.tokenCalls = 0;
    },
  };

  const router = new Router();
  const guard = createGuard({ tokens, limiter, store, latencyMs: () => settings.latencyMs, counters });
  registerIdentityRoutes(router, tokens, store, counters, codes);
  registerApiRoutes(router, guard, { store, clock, ifModifiedSince: () => settings.ifModifiedSince });
  const admin = new Router();
  registerAdminRoutes(admin, control);
  let apiBase = '';
  const webhooks = new WebhookSender(
    xeroWebhooks(() => apiBase),
    () => clock.now(),
  );
  store.feed.subscribe((c) => webhooks.record(c));
  registerWebhookAdminRoutes(admin, webhooks, (body) => applyXeroChanges(store, body));

  const server = await startEmulatorServer(
    {
      name: 'xero',
      router,
      admin,
      faults,
      journal,
      keyOf: (req) => {
        const t = req.headers['xero-tenant-id'];
        return Array.isArray(t) ? t[0] : t;
      },
      errors: {
        notFound: () => xeroErrors.notFound(),
        methodNotAllowed: () => xeroErrors.methodNotAllowed(),
        tooLarge: () => xeroErrors.validation(['The request body is too large']),
        badJson: (m) => xeroErrors.validation([`The request body is not valid JSON: ${m}`]),
        injected: (status, _reason, retryAfterSeconds) => {
          if (status === 429)
            return xeroErrors.rateLimited('minute', retryAfterSeconds ?? 1, limiter.headers(undefined));
          if (status === 400) return xeroErrors.validation(['Injected validation failure']);
          if (status === 401 || status === 403) return xeroErrors.problem(status, 'AuthenticationUnsuccessful');
          if (status === 404) return xeroErrors.notFound();
          if (status === 503) return xeroErrors.offline();
          return {
            status,
            text: 'An error occurred in Xero. Check the API Status page http://status.developer.xero.com for current service status.',
          };
        },
        internal: () => ({
          status: 500,
          text: 'An error occurred in Xero. Check the API Status page http://status.developer.xero.com for current service status.',
        }),
      },
    },
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );
  apiBase = `${server.url}/api.xro/2.0`;
  return {
    ...control,
    webhooks,
    url: server.url,
    port: server.port,
    apiBase: `${server.url}/api.xro/2.0`,
    tokenUrl: `${server.url}/connect/token`,
    tenantIds: store.tenantIds,
    close: () => {
      webhooks.close();
      return server.close();
    },
  };
}
