/**
 * Zoho Books API v3 emulator: a local HTTP sandbox of the read side the connector uses, over seeded data.
 * https://www.zoho.com/books/api/v3/introduction/
 *
 * - OAuth: POST /oauth/v2/token (refresh_token grant; the refresh token never rotates); access tokens
 *   expire after `accessTokenTtlSeconds` of emulator clock. Books calls need
 *   `Authorization: Zoho-oauthtoken <token>` (else 401 code 57).
 * - Books routes under /books/v3: organizations, settings/taxes, settings/taxgroups/:id, invoices,
 *   creditnotes, contacts (+ /:id). Every call but /organizations needs `organization_id` (query or the
 *   X-com-zoho-books-organizationid header).
 * - Lists: summary rows (no line_items), page/per_page (≤ 200, larger values capped), page_context, the
 *   inclusive `last_modified_time` filter (`yyyy-MM-ddTHH:mm:ss+0530`, `+` sent as %2B).
 * - Limits: `ratePerMinute` and `dailyLimit` per organisation → 429 code 44 / 45, X-Rate-Limit-* headers on
 *   every Books response, no Retry-After (see rate-limiter.ts).
 * - Errors `{code, message}` (zoho-error.ts); faults, journal and admin routes from the shared kit.
 * See README.md in this folder for every decision.
 */
import type { EmulatorOptions } from '../kit/emulator-options.js';
import { FaultInjector } from '../kit/faults.js';
import { Journal } from '../kit/journal.js';
import { Router, type RouteResult } from '../kit/router.js';
import { startEmulatorServer } from '../kit/emulator-server.js';
import { registerAdminRoutes } from './admin-routes.js';
import { WebhookSender } from '../kit/webhook-sender.js';
import { registerWebhookAdminRoutes } from '../kit/webhook-admin-routes.js';
import { applyZohoChanges } from './apply-changes.js';
import { zohoBooksWebhooks } from './webhooks.js';
import { registerContactRoutes } from './contact-routes.js';
import { registerCreditNoteRoutes } from './credit-note-routes.js';
import { EmulatorClock, type ClockSettings } from '../kit/emulator-clock.js';
import { generateData, type GenerateDataOptions } from './generate-data.js';
import { registerInvoiceRoutes } from './invoice-routes.js';
import { registerOAuthRoutes, ZOHO_DECISION_PATH } from './oauth-routes.js';
import { AuthorizationCodes } from '../kit/authorization-codes.js';
import { ZohoRateLimiter } from './rate-limiter.js';
import { ZOHO_SANDBOX_CONNECTION, ZOHO_SANDBOX_DEFAULTS } from './sandbox-defaults.js';
import { SeededRandom } from '../kit/seeded-random.js';
import { registerSettingsRoutes } from './settings-routes.js';
import { ZohoTokenRegistry } from './token-registry.js';
import { createGuard, presentedToken } from './vendor-guard.js';
import { ZohoDataStore } from './zoho-data-store.js';
import { ZohoApiError, zohoErrors, zohoResult } from './zoho-error.js';

/** Zoho's options; the shared ones default to ZOHO_SANDBOX_DEFAULTS (seed 1, 500 invoices, 100 requests/minute, 1-hour tokens). */
export interface ZohoEmulatorOptions extends EmulatorOptions {
  /** Number of customers. @defaultValue 80 */
  customers?: number;
  /** Vendor contacts. @defaultValue 4 */
  vendors?: number;
  /** Number of credit notes. @defaultValue 60 */
  creditNotes?: number;
  /** Generated activity range, org-local days. @defaultValue "2025-01-01".."2025-12-31" */
  from?: string;
  to?: string;
  /** Requests per organisation-local day; 0 disables. @defaultValue 10000 */
  dailyLimit?: number;
  /** Refresh-token grants allowed per 10 minutes; 0 disables. @defaultValue 10 */
  maxRefreshesPerTenMinutes?: number;
  /** @defaultValue "60012345678" */
  organizationId?: string;
  /** Redirect URIs the authorize page accepts besides loopback ones (any port). */
  redirectUris?: string[];
  /** Initial emulator clock (also what reset restores). @defaultValue real time, ticking */
  clock?: ClockSettings;
  /** Journal capacity. @defaultValue 200000 */
  journalMax?: number;
}

export interface ZohoEmulatorStats {
  refreshCount: number;
  refreshAttempts: number;
  requestCount: number;
  rateLimited: { minute: number; day: number };
  rateLimits: { ratePerMinute: number; dailyLimit: number; usedToday: number; usedThisMinute: number };
  records: { invoices: number; creditNotes: number; contacts: number };
}

export interface ZohoEmulator {
  /** e.g. http://127.0.0.1:41234 (also the `api_domain` the token endpoint returns). */
  url: string;
  port: number;
  /** `${url}/books/v3` */
  apiBase: string;
  /** `${url}/oauth/v2/token` */
  tokenUrl: string;
  organizationId: string;
  store: ZohoDataStore;
  faults: FaultInjector;
  journal: Journal;
  clock: EmulatorClock;
  tokens: ZohoTokenRegistry;
  /** The authorization-code grant: consent page, codes, exchange checks. */
  codes: AuthorizationCodes;
  limiter: ZohoRateLimiter;
  /** The webhook sender (`/__admin/webhooks`): every change the store records, as a workflow webhook posts it. */
  webhooks: WebhookSender;
  stats(): ZohoEmulatorStats;
  close(): Promise<void>;
}

export async function startZohoEmulator(options: ZohoEmulatorOptions = {}): Promise<ZohoEmulator> {
  const d = ZOHO_SANDBOX_DEFAULTS;
  const seed = options.seed ?? d.seed;
  const dataOptions: GenerateDataOptions = {
    seed,
    records: options.records ?? d.records,
    customers: options.customers ?? d.customers,
    vendors: options.vendors,
    creditNotes: options.creditNotes ?? d.creditNotes,
    from: options.from,
    to: options.to,
    organizationId: options.organizationId ?? d.organizationId,
  };
  const clock = new EmulatorClock(options.clock ?? {});
  const store = new ZohoDataStore(generateData(dataOptions), clock);
  const initialFaults = options.faults ?? {};
  const faultRandom = new SeededRandom(`${String(seed)}:faults`);
  const faults = new FaultInjector(initialFaults, () => faultRandom.next());
  const journal = new Journal(options.journalMax);
  let baseUrl = '';
  const tokens = new ZohoTokenRegistry(
    {
      clientId: options.clientId ?? d.clientId,
      clientSecret: options.clientSecret ?? d.clientSecret,
      refreshToken: options.refreshToken ?? d.refreshToken,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? d.accessTokenTtlSeconds,
      maxRefreshesPerTenMinutes: options.maxRefreshesPerTenMinutes ?? d.maxRefreshesPerTenMinutes,
      apiDomain: () => baseUrl,
    },
    clock,
    new SeededRandom(`${String(seed)}:tokens`),
  );
  const initialLimits = {
    ratePerMinute: options.ratePerMinute ?? d.ratePerMinute,
    dailyLimit: options.dailyLimit ?? d.dailyLimit,
  };
  const limiter = new ZohoRateLimiter(initialLimits, clock, store.organization.offsetMinutes);
  let requestCount = 0;

  const router = new Router();
  const guard = createGuard({ tokens, limiter, organizationId: () => store.organizationId });
  const codes = new AuthorizationCodes({
    vendor: 'Zoho Books sandbox',
    clientId: options.clientId ?? d.clientId,
    clientSecret: options.clientSecret ?? d.clientSecret,
    redirectUris: options.redirectUris,
    // "an authorization code … valid for 2 minutes": https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html
    codeTtlMs: 120_000,
    pkce: true,
    // A Zoho token is the user's: it reaches every organisation of the user.
    choose: 'all',
    organisations: () => [
      {
        id: store.organizationId,
        name: String(store.replayed.organisation?.organization.name ?? store.organization.name),
      },
    ],
    decisionPath: ZOHO_DECISION_PATH,
    clock,
    // The India edition: https://www.zoho.com/accounts/protocol/oauth/multi-dc.html
    callbackParams: () => ({ location: 'in', 'accounts-server': baseUrl }),
    errorPage: (problem, detail) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>Zoho Accounts</title></head><body><h1>${
        problem === 'invalid_redirect_uri' ? 'Invalid Redirect Uri' : 'Invalid Client'
      }</h1><p>${detail.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p></body></html>`,
  });
  registerOAuthRoutes(router, tokens, codes);
  registerSettingsRoutes(router, guard, store);
  registerInvoiceRoutes(router, guard, store);
  registerCreditNoteRoutes(router, guard, store);
  registerContactRoutes(router, guard, store);

  const stats = (): ZohoEmulatorStats => ({
    refreshCount: tokens.refreshCount,
    refreshAttempts: tokens.refreshAttempts,
    requestCount,
    rateLimited: { ...limiter.refused },
    rateLimits: limiter.current,
    records: {
      invoices: store.invoiceMap.size,
      creditNotes: store.creditNoteMap.size,
      contacts: store.contactMap.size,
    },
  });
  const urls = () => ({ url: baseUrl, apiBase: `${baseUrl}/books/v3`, tokenUrl: `${baseUrl}/oauth/v2/token` });

  const admin = new Router();
  const webhooks = new WebhookSender(zohoBooksWebhooks(ZOHO_SANDBOX_CONNECTION), () => clock.now());
  store.feed.subscribe((c) => webhooks.record(c));
  registerWebhookAdminRoutes(admin, webhooks, (body) => applyZohoChanges(store, body));
  registerAdminRoutes(admin, {
    store,
    clock,
    faults,
    journal,
    tokens,
    limiter,
    stats,
    urls,
    reset: (overrides) => {
      store.load(generateData({ ...dataOptions, ...overrides }));
      clock.set({ now: null, frozen: false });
      clock.set(options.clock ?? {});
      tokens.reset();
      limiter.reset();
      limiter.configure(initialLimits);
      faults.set(initialFaults);
      journal.clear();
      requestCount = 0;
    },
  });

  // Errors raised by the shared kit (unknown path, bad JSON, injected faults) in Zoho's shape, with the
  // rate-limit headers every Books response carries. An injected 429 looks like Zoho's per-minute throttle.
  const shaped = (e: ZohoApiError): RouteResult =>
    e.toResult(e.headers['X-Rate-Limit-Reset'] ? {} : limiter.dailyHeaders());
  const server = await startEmulatorServer(
    {
      name: 'zoho-books',
      router,
      admin,
      faults,
      journal,
      keyOf: (req) => presentedToken(req.headers),
      errors: {
        notFound: () => shaped(zohoErrors.invalidUrl()),
        methodNotAllowed: () => shaped(zohoErrors.methodNotAllowed()),
        tooLarge: (limit) => shaped(new ZohoApiError(413, 4, `The request body exceeds ${limit} bytes.`)),
        badJson: () => shaped(zohoErrors.badJson()),
        injected: (status, reason, retryAfterSeconds) => {
          if (status === 429) return shaped(limiter.minuteError(Math.max(1, retryAfterSeconds ?? 60)));
          if (status === 401) return shaped(zohoErrors.notAuthorized());
          return shaped(
            new ZohoApiError(status, 1000, status === 500 ? 'Internal error' : `Injected ${status}: ${reason}`),
          );
        },
        internal: () => zohoResult(500, { code: 1000, message: 'Internal error' }),
      },
    },
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );
  server.server.on('request', (req) => {
    if (!(req.url ?? '').startsWith('/__admin')) requestCount += 1;
  });
  baseUrl = server.url;
  return {
    url: server.url,
    port: server.port,
    apiBase: `${server.url}/books/v3`,
    tokenUrl: `${server.url}/oauth/v2/token`,
    organizationId: store.organization.organization_id,
    store,
    faults,
    journal,
    clock,
    tokens,
    codes,
    limiter,
    stats,
    webhooks,
    close: () => {
      webhooks.close();
      return server.close();
    },
  };
}
