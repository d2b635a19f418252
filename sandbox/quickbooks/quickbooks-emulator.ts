import type { EmulatorOptions } from '../kit/emulator-options.js';
import { FaultInjector } from '../kit/faults.js';
import { Journal } from '../kit/journal.js';
import { startEmulatorServer } from '../kit/emulator-server.js';
import { adminRouter } from './admin-routes.js';
import { EmulatorClock } from '../kit/emulator-clock.js';
import { AuthorizationCodes } from '../kit/authorization-codes.js';
import { type EmulatorState, type EmulatorStats, responseTime, statsOf } from './emulator-state.js';
import { generateData } from './generate-data.js';
import { qboFaults, tidHeaders } from './qbo-fault.js';
import { QboStore } from './qbo-store.js';
import type { QboCompanyProfile } from './catalog.js';
import { RequestLimiter } from './request-limiter.js';
import { QboTokenRegistry } from './token-registry.js';
import { QBO_DECISION_PATH, vendorRouter } from './vendor-routes.js';
import { WebhookSender } from '../kit/webhook-sender.js';
import { registerWebhookAdminRoutes } from '../kit/webhook-admin-routes.js';
import { applyQuickBooksChanges } from './apply-changes.js';
import { quickBooksWebhooks } from './webhooks.js';

/** QuickBooks' options; the shared ones default to seed 42, 60 invoices (≈5 % then deleted), 500 requests/minute, 1-hour tokens and QBO_SANDBOX_DEFAULTS' credentials. */
export interface QuickBooksEmulatorOptions extends EmulatorOptions {
  /** @defaultValue 12 */
  customers?: number;
  /** @defaultValue 8 */
  creditMemos?: number;
  /** History length before `now`. @defaultValue 60 */
  spanDays?: number;
  /** The emulator clock's starting instant (ISO); default real time. Data is generated relative to it. */
  now?: string;
  /** Freeze the clock at `now` (same-second edits, expiry). @defaultValue false */
  frozen?: boolean;
  /** @defaultValue '9341453012345678' */
  realmId?: string;
  /** Redirect URIs the authorize page accepts besides loopback ones (any port). */
  redirectUris?: string[];
  /** Concurrent requests per realm before 429 (0 = off). @defaultValue 10 */
  maxInFlight?: number;
  /** Processing time of each API request, ms (makes the in-flight limit observable). @defaultValue 0 */
  latencyMs?: number;
  /** @defaultValue 'INR' */
  homeCurrency?: string;
  /** What CompanyInfo and Preferences say (country, address, multicurrency). @defaultValue INDIA_COMPANY */
  company?: QboCompanyProfile;
  /** The company's UTC offset for rendered timestamps. @defaultValue 330 (IST) */
  utcOffsetMinutes?: number;
}

export interface RunningQuickBooksEmulator {
  url: string;
  port: number;
  realmId: string;
  store: QboStore;
  clock: EmulatorClock;
  tokens: QboTokenRegistry;
  /** The authorization-code grant: consent page, codes, exchange checks. */
  codes: AuthorizationCodes;
  faults: FaultInjector;
  journal: Journal;
  /** The webhook sender (`/__admin/webhooks`): every change the store records, as Intuit delivers it. */
  webhooks: WebhookSender;
  stats(): EmulatorStats;
  close(): Promise<void>;
}

export const QBO_SANDBOX_DEFAULTS = {
  realmId: '9341453012345678',
  clientId: 'qbo-sandbox-client',
  clientSecret: 'qbo-sandbox-secret',
  refreshToken: 'qbo-sandbox-refresh-token',
} as const;

/**
 * Starts the QuickBooks Online sandbox on loopback: the v3 query, CDC and read endpoints for one realm,
 * Intuit OAuth with rotating refresh tokens, per-realm throttling, QBO fault shapes, and a generated
 * Indian company (GST intra/inter-state, USD/EUR invoices, partial payments, discounts, voids, deletes,
 * credit memos, inactive customers) that tests and the admin API mutate under a settable clock.
 */
export async function startQuickBooksEmulator(
  options: QuickBooksEmulatorOptions = {},
): Promise<RunningQuickBooksEmulator> {
  const clock = new EmulatorClock({
    ...(options.now ? { now: options.now } : {}),
    ...(options.frozen ? { frozen: true } : {}),
  });
  const offsetMinutes = options.utcOffsetMinutes ?? 330;
  const store = new QboStore(clock, {
    offsetMinutes,
    homeCurrency: options.homeCurrency ?? 'INR',
    ...(options.company ? { company: options.company } : {}),
  });
  const gen = {
    seed: options.seed ?? 42,
    records: options.records ?? 60,
    customers: options.customers ?? 12,
    creditMemos: options.creditMemos ?? 8,
    spanDays: options.spanDays ?? 60,
  };
  generateData(store, { ...gen, now: clock.nowSecond() });
  const realmId = options.realmId ?? QBO_SANDBOX_DEFAULTS.realmId;
  const state: EmulatorState = {
    realmId,
    offsetMinutes,
    latencyMs: options.latencyMs ?? 0,
    clock,
    store,
    tokens: new QboTokenRegistry(
      {
        clientId: options.clientId ?? QBO_SANDBOX_DEFAULTS.clientId,
        clientSecret: options.clientSecret ?? QBO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: options.refreshToken ?? QBO_SANDBOX_DEFAULTS.refreshToken,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
      },
      clock,
    ),
    codes: new AuthorizationCodes({
      vendor: 'QuickBooks Online sandbox (Intuit)',
      clientId: options.clientId ?? QBO_SANDBOX_DEFAULTS.clientId,
      clientSecret: options.clientSecret ?? QBO_SANDBOX_DEFAULTS.clientSecret,
      redirectUris: options.redirectUris,
      // Codes are short-lived; the sandbox gives 5 minutes.
      codeTtlMs: 300_000,
      // Intuit documents no PKCE for this flow: a challenge is refused (invalid_request).
      pkce: false,
      // The person picks one company; the grant reaches that realm only.
      choose: 'one',
      organisations: () => [{ id: realmId, name: store.renderContext.company.name }],
      decisionPath: QBO_DECISION_PATH,
      clock,
      // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0
      callbackParams: (chosen) => ({ realmId: chosen[0]! }),
      errorPage: (problem, detail) =>
        `<!doctype html><html><head><meta charset="utf-8"><title>Intuit</title></head><body><h1>Something went wrong</h1><p>${
          problem === 'invalid_redirect_uri'
            ? "The redirect_uri query parameter value is invalid. Make sure it is listed in the Redirect URIs section on your app's keys tab and matches it exactly."
            : 'The client_id is invalid.'
        }</p><p>${detail.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p></body></html>`,
    }),
    limiter: new RequestLimiter(
      { ratePerMinute: options.ratePerMinute ?? 500, maxInFlight: options.maxInFlight ?? 10 },
      () => clock.now(),
    ),
    faults: new FaultInjector(options.faults ?? {}),
    journal: new Journal(),
    counters: { requests: 0, byEndpoint: {}, queries: 0, cdcCalls: 0, minorVersions: {} },
  };
  store.organisation = realmId;
  const webhooks = new WebhookSender(quickBooksWebhooks(), () => clock.now());
  store.feed.subscribe((c) => webhooks.record(c));
  const reset = (b: Record<string, unknown>) => {
    store.clear();
    const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);
    store.silently(() =>
      generateData(store, {
        seed: typeof b.seed === 'number' || typeof b.seed === 'string' ? b.seed : gen.seed,
        records: num(b.records, gen.records),
        customers: num(b.customers, gen.customers),
        creditMemos: num(b.creditMemos, gen.creditMemos),
        spanDays: num(b.spanDays, gen.spanDays),
        now: clock.nowSecond(),
      }),
    );
    state.limiter.reset();
  };
  const admin = adminRouter(state, reset);
  registerWebhookAdminRoutes(admin, webhooks, (body) => applyQuickBooksChanges(store, body));
  const running = await startEmulatorServer(
    {
      name: 'quickbooks',
      router: vendorRouter(state),
      admin: admin,
      faults: state.faults,
      journal: state.journal,
      keyOf: (req) =>
        typeof req.headers.authorization === 'string' ? req.headers.authorization.slice(0, 16) : undefined,
      errors: {
        notFound: (path) => ({
          status: 404,
          headers: tidHeaders(),
          body: {
            Fault: {
              Error: [{ Message: 'Resource not found', Detail: `No resource at ${path}`, code: '0' }],
              type: 'ValidationFault',
            },
            time: responseTime(state),
          },
        }),
        methodNotAllowed: (method, path) =>
          qboFaults.validation('0', 'Method not allowed', `${method} ${path}`, responseTime(state)),
        tooLarge: (limit) =>
          qboFaults.validation('0', 'Request too large', `body over ${limit} bytes`, responseTime(state)),
        badJson: (message) => qboFaults.validation('0', 'Invalid JSON', message, responseTime(state)),
        injected: (status) =>
          status === 429
            ? qboFaults.throttled(responseTime(state))
            : status >= 500
              ? qboFaults.system(status, responseTime(state))
              : qboFaults.validation('0', 'Injected fault', `status ${status}`, responseTime(state)),
        internal: () => qboFaults.system(500, responseTime(state)),
      },
    },
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );
  return {
    url: running.url,
    port: running.port,
    realmId: state.realmId,
    store,
    clock,
    tokens: state.tokens,
    codes: state.codes,
    faults: state.faults,
    journal: state.journal,
    webhooks,
    stats: () => statsOf(state),
    close: () => {
      webhooks.close();
      return running.close();
    },
  };
}
