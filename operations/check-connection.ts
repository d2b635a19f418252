import { documentLinksOffReason } from '../src/documents/document-links.js';
import { credentialsStatus } from '../src/auth/credentials-status.js';
import { tokenKeyOf } from '../src/auth/token-key.js';
import type { SystemName } from '../src/connector/types.js';
import {
  AuthError,
  ConfigError,
  CredentialsRefusedError,
  ParkedError,
  RateLimitedError,
  RejectedError,
  TransientError,
} from '../src/errors/index.js';
import { connectionBudget } from '../jobs/admission/connection-budget.js';
import { formatDays } from '../src/pipeline/quota-projection.js';
import { estimateConnectionFirstSync, projectConnectionCalls } from './project-calls.js';
import type { ConnectionHandle, Runtime } from '../jobs/runtime.js';
import { kindsOf, missingFields } from './check-field-mappings.js';

/** One check of a connection: passed, failed (with its cause and what to do), or not run (and why). */
export interface CheckResult {
  check: string;
  status: 'ok' | 'failed' | 'skipped';
  /** What was found: the cause when it failed. Never a secret. */
  detail: string;
  /** What to do about a failure. */
  fix?: string;
}

export interface ConnectionCheck {
  id: string;
  system: SystemName;
  ok: boolean;
  checks: CheckResult[];
}

type CheckRuntime = Pick<
  Runtime,
  'connection' | 'vendorClient' | 'quotas' | 'metrics' | 'logger' | 'tokens' | 'config' | 'checkpoints'
>;

/** `firstSync`: estimate a first sync's duration always (`erp-sync check`), or only while the connection has no checkpoint (default). */
export interface CheckOptions {
  forceRefresh?: boolean;
  firstSync?: boolean;
}

/** The setting naming the vendor's organisation, per system: what a wrong one is fixed in. */
const ORGANISATION_SETTING: Record<SystemName, string> = {
  'zoho-books': 'settings.organizationId',
  quickbooks: 'settings.realmId',
  xero: 'settings.tenantId',
  tally: 'settings.company',
};

/** The setting naming where the vendor is reached, per system: what an unreachable one is fixed in. */
const ADDRESS_SETTING: Record<SystemName, string> = {
  'zoho-books': 'settings.baseUrl',
  quickbooks: 'settings.baseUrl',
  xero: 'settings.baseUrl',
  tally: 'settings.url (TallyPrime running as a server, the company open)',
};

/** What to do when the vendor refuses the grant: authorise the connection again (`erp-sync connect`). */
const reconsent = (id: string) =>
  `re-consent: run erp-sync connect --connection ${id} (it stores the new grant in place of the old one; docs/operations.md, Re-authorising a connection)`;

/** Rows on the page a check reads: QuickBooks' smallest MAXRESULTS (the others allow 1). */
const CHECK_PAGE_SIZE = 2;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Why a vendor call failed, and what to do about it, from the error class the connector's error table chose. */
function vendorFailure(check: string, err: unknown, system: SystemName, id: string): CheckResult {
  const detail = message(err);
  const org = ORGANISATION_SETTING[system];
  if (err instanceof CredentialsRefusedError) return { check, status: 'failed', detail, fix: reconsent(id) };
  if (err instanceof ConfigError) return { check, status: 'failed', detail, fix: `check ${org} of connection ${id}` };
  if (err instanceof AuthError)
    return {
      check,
      status: 'failed',
      detail,
      fix: `check ${org} (the organisation this grant may read) and the scopes the app was granted (connectors/${system}/README.md); ${reconsent(id)}`,
    };
  if (err instanceof ParkedError)
    return {
      check,
      status: 'failed',
      detail,
      fix: `wait until the park ends, or see \`erp-sync connections\` for why it is parked`,
    };
  if (err instanceof RateLimitedError)
    return {
      check,
      status: 'failed',
      detail,
      fix: 'the vendor quota is spent: wait for its window, or lower the connection rateBudget',
    };
  if (err instanceof RejectedError)
    return { check, status: 'failed', detail, fix: `check ${org} and the connection's ${ADDRESS_SETTING[system]}` };
  if (err instanceof TransientError)
    return {
      check,
      status: 'failed',
      detail,
      fix: `the vendor did not answer: check the connection's ${ADDRESS_SETTING[system]} and the network, then run again`,
    };
  return { check, status: 'failed', detail, fix: "check the connection's settings" };
}

/** The organisation's base currency from a stream's lookups (each connector keeps it under its own name). */
function organisationBaseCurrency(system: SystemName, lookups: unknown): string | undefined {
  const l = (lookups ?? {}) as {
    homeCurrency?: string;
    baseCurrency?: string;
    organization?: { baseCurrency?: string };
  };
  const code =
    system === 'quickbooks' ? l.homeCurrency : system === 'xero' ? l.baseCurrency : l.organization?.baseCurrency;
  return code?.trim().toUpperCase() || undefined;
}

/** Every check of each connection, one connection after another (`erp-sync check`); ok when all passed. */
export async function checkConnections(
  rt: CheckRuntime,
  ids: readonly string[],
  options: CheckOptions = {},
): Promise<{ ok: boolean; connections: ConnectionCheck[] }> {
  const connections: ConnectionCheck[] = [];
  for (const id of ids) connections.push(await checkConnection(rt, id, options));
  return { ok: connections.every((c) => c.ok), connections };
}

/**
 * Checks that a connection can run, as `erp-sync check` and the worker's start report them: its token
 * refreshes, one page of each configured entity reads (organisation reachable, scopes enough), the
 * organisation's base currency is billing's, the vendor quota left, and billing accepts its keys. Each
 * check says what it found; a failure names the cause and the fix. Never throws for a failed check.
 */
export async function checkConnection(
  rt: CheckRuntime,
  id: string,
  options: CheckOptions & { signal?: AbortSignal; now?: () => number } = {},
): Promise<ConnectionCheck> {
  const run: CheckRun = { rt, id, handle: rt.connection(id), signal: options.signal, now: options.now ?? Date.now };
  const token = await checkToken(run, options.forceRefresh ?? false);
  const reads = await checkReads(run, token.status !== 'failed');
  const checks: CheckResult[] = [
    token,
    ...reads.checks,
    ...(reads.readOk ? await checkVendor(run) : []),
    checkBaseCurrency(run, reads, token.status !== 'failed'),
    ...(await checkFields(run, token.status !== 'failed')),
    await checkQuota(run),
    await checkSchedule(run, reads.lookups),
    ...(reads.readOk ? await checkFirstSync(run, options.firstSync) : []),
    ...(await checkBillingKeys(run)),
    ...checkPdfLinks(run),
  ];
  return { id, system: run.handle.config.system, ok: checks.every((x) => x.status !== 'failed'), checks };
}

/** One connection's check, as each of its steps sees it. */
interface CheckRun {
  rt: CheckRuntime;
  id: string;
  handle: ConnectionHandle;
  signal?: AbortSignal;
  now: () => number;
}

/**
 * The token, with `forceRefresh` through a refresh (the vendor's token endpoint under the shared store's
 * lock), so a revoked grant shows now, not when the access token held in Redis expires. Not by default:
 * refreshes are limited (Zoho: 10 per refresh token in 10 minutes), and a start must not spend them.
 */
async function checkToken({ rt, id, handle }: CheckRun, forceRefresh: boolean): Promise<CheckResult> {
  const auth = rt.vendorClient(id).options.auth;
  if (!auth) return { check: 'token', status: 'skipped', detail: 'this connector does not use OAuth tokens' };
  // Seeding first (Redis only): a new refresh token in the config (a re-consent) clears an old refusal.
  const refused = forceRefresh ? undefined : await auth.prepare?.().then(() => credentialsStatus(rt.tokens, handle));
  if (refused && !refused.ok) {
    // A grant the vendor refused waits for its recheck: a start does not call the token endpoint for it again.
    return {
      check: 'token',
      status: 'failed',
      detail: `the vendor refused the refresh token at ${refused.refusedAt} (${refused.failure})`,
      fix: reconsent(id),
    };
  }
  try {
    const current = await auth.token();
    if (forceRefresh) await auth.token(current);
    const held = (await rt.tokens.describe(tokenKeyOf(handle))).expiresAt;
    const until = held ? `, access token valid until ${new Date(held).toISOString()}` : '';
    return { check: 'token', status: 'ok', detail: `${forceRefresh ? 'refreshed' : 'usable'}${until}` };
  } catch (err) {
    return vendorFailure('token', err, handle.config.system, id);
  }
}

/** What the reads found: their checks, and the organisation's base currency from the first lookups that name it. */
interface ReadChecks {
  checks: CheckResult[];
  orgCurrency?: string;
  currencyError?: unknown;
  /** The first lookups read (the schedule's projection counts their calls from them). */
  lookups?: unknown;
  readOk: boolean;
}

/**
 * The first page of each configured entity, at the smallest page every connector's settings allow
 * (`pageSize`): a list call and at most two detail calls, whatever the organisation holds.
 */
async function checkReads({ rt, id, handle, signal, now }: CheckRun, tokenOk: boolean): Promise<ReadChecks> {
  const { connector, config: c } = handle;
  const read = handle.readContext({
    logger: rt.logger.child({ connection: id, check: true }),
    signal,
    until: new Date(now()),
  });
  const ctx = { ...read, settings: { ...read.settings, pageSize: CHECK_PAGE_SIZE } };
  const out: ReadChecks = { checks: [], readOk: false };
  for (const entity of c.entities) {
    const check = `read ${entity}`;
    if (!tokenOk) {
      out.checks.push({ check, status: 'skipped', detail: 'needs a token that refreshes' });
      continue;
    }
    const stream = connector.streams[entity];
    try {
      let rows = 0;
      for await (const page of stream.read(ctx, stream.initialState(undefined))) {
        rows = page.records.length + (page.knownSkipped ?? 0);
        break;
      }
      out.checks.push({ check, status: 'ok', detail: `first page read: ${rows} row(s)` });
      out.readOk = true;
    } catch (err) {
      out.checks.push(vendorFailure(check, err, c.system, id));
      continue;
    }
    if (out.orgCurrency === undefined && stream.lookups) {
      try {
        out.lookups = await stream.lookups(ctx);
        out.orgCurrency = organisationBaseCurrency(c.system, out.lookups);
      } catch (err) {
        out.currencyError = err;
      }
    }
  }
  return out;
}

/**
 * The connection's `fields` rules against the fields the organisation has: one vendor settings read per
 * kind of field the rules name (src/connector/field-catalog.ts). Failed, naming each rule whose field the
 * organisation lacks (its records would never carry it); ok with a warning where the vendor's list may
 * be incomplete. No check without rules.
 */
async function checkFields({ rt, id, handle, signal, now }: CheckRun, tokenOk: boolean): Promise<CheckResult[]> {
  const rules = handle.config.fields;
  if (rules.length === 0) return [];
  const check = 'field mapping';
  const read = handle.connector.fieldCatalog;
  if (!read) return [{ check, status: 'skipped', detail: 'this connector cannot list its fields' }];
  if (!tokenOk) return [{ check, status: 'skipped', detail: 'needs a token that refreshes' }];
  let catalog;
  try {
    const ctx = handle.readContext({
      logger: rt.logger.child({ connection: id, check: true }),
      signal,
      until: new Date(now()),
    });
    catalog = await read(ctx, kindsOf(rules));
  } catch (err) {
    return [vendorFailure(check, err, handle.config.system, id)];
  }
  const missing = missingFields(rules, catalog);
  const sure = missing.filter((m) => !m.uncertain);
  const named = (list: typeof missing) => list.map((m) => `fields.${m.index} names ${m.kind} "${m.name}"`).join('; ');
  const found = catalog.map((c) => `${c.fields.length} ${c.kind}`).join(', ');
  if (sure.length > 0)
    return [
      {
        check,
        status: 'failed',
        detail: `the organisation has no such field: ${named(sure)} (it has ${found})`,
        fix: `correct the name in connections[${id}].fields (as the vendor shows it: label, api_name or id), or remove the rule`,
      },
    ];
  if (missing.length > 0) {
    const why = catalog.find((c) => c.incomplete)?.incomplete;
    return [{ check, status: 'ok', detail: `warning, not listed: ${named(missing)} (${why})` }];
  }
  return [{ check, status: 'ok', detail: `${rules.length} rule(s), every field found (${found})` }];
}

/** The connector's own checks (TallyPrime: the company, its voucher types and tax ledgers), after a read worked. */
async function checkVendor({ rt, id, handle, signal, now }: CheckRun): Promise<CheckResult[]> {
  const { connector, config } = handle;
  if (!connector.checks) return [];
  const ctx = handle.readContext({
    logger: rt.logger.child({ connection: id, check: true }),
    signal,
    until: new Date(now()),
  });
  try {
    return await connector.checks(ctx);
  } catch (err) {
    return [vendorFailure(`${config.system} checks`, err, config.system, id)];
  }
}

/** The organisation's base currency against billing's: the vendor's exchange rates are relative to the former. */
function checkBaseCurrency(
  { id, handle }: CheckRun,
  { orgCurrency, currencyError, readOk }: ReadChecks,
  tokenOk: boolean,
): CheckResult {
  const billingBase = handle.billing.baseCurrency;
  if (orgCurrency === undefined) {
    if (currencyError) return vendorFailure('base currency', currencyError, handle.config.system, id);
    return {
      check: 'base currency',
      status: 'skipped',
      detail: !tokenOk
        ? 'needs a token that refreshes'
        : readOk
          ? "the connector's lookups do not name the organisation's base currency"
          : 'needs an entity read that works',
    };
  }
  if (orgCurrency === billingBase)
    return { check: 'base currency', status: 'ok', detail: `organisation ${orgCurrency} = billing ${billingBase}` };
  return {
    check: 'base currency',
    status: 'failed',
    detail: `organisation ${orgCurrency} ≠ billing ${billingBase}: the vendor's exchange rates are relative to ${orgCurrency}, so foreign-currency documents cannot be given a rate to ${billingBase}`,
    fix: `connect the organisation whose base currency is ${billingBase}, or set the billing company's baseCurrency (billing.baseCurrency, or the connection's billing.baseCurrency) to ${orgCurrency} if that is billing's`,
  };
}

/** Quota: what we counted in Redis, and what the vendor's headers said on the calls above. */
async function checkQuota({ rt, id, handle }: CheckRun): Promise<CheckResult> {
  const used = (await rt.quotas.usage(id)) as { minute?: number; day?: number };
  const limits = connectionBudget(handle);
  const vendorSaid = (await rt.metrics.vendorQuotaRemaining.get()).values.filter((v) => v.labels.connection === id);
  const remaining = vendorSaid.map((v) => `${v.labels.window} ${v.value}`).join(', ');
  const parked = await rt.quotas.parkedUntil(id);
  const spent = vendorSaid.some((v) => v.value <= 0);
  return {
    check: 'quota',
    status: parked || spent ? 'failed' : 'ok',
    detail: `used minute ${used.minute ?? 0}/${limits.perMinute || '∞'}, day ${used.day ?? 0}/${limits.perDay || '∞'}; vendor says left: ${remaining || 'not reported'}${
      parked ? `; parked until ${new Date(parked).toISOString()}` : ''
    }`,
    ...(parked || spent
      ? { fix: 'pulls wait until the vendor window resets (or the park ends); see `erp-sync connections`' }
      : {}),
  };
}

/**
 * The schedule against the vendor's budgets (src/pipeline/quota-projection.ts): failed when it cannot
 * fit (the day cap, or the app's month), ok with a warning when it is tight.
 */
async function checkSchedule({ rt, id, now }: CheckRun, lookups: unknown): Promise<CheckResult> {
  const p = await projectConnectionCalls(rt, id, { lookups, now: now() });
  if (!p) return { check: 'schedule', status: 'skipped', detail: 'the connector declares no call costs' };
  if (p.verdict === 'fits') return { check: 'schedule', status: 'ok', detail: `fits: ${p.message}` };
  const fix =
    p.month && p.month.verdict !== 'fits'
      ? "raise the app's tier (settings.appMonthlyReadBudget), lengthen schedule.everySeconds or configure webhooks on the app's connections"
      : 'lengthen schedule.everySeconds, configure webhooks (schedule.withWebhooksEverySeconds), or set the plan/tier the organisation has (settings.plan, settings.tier, rateBudget.perDay)';
  if (p.verdict === 'tight') return { check: 'schedule', status: 'ok', detail: `warning, tight: ${p.message}`, fix };
  return { check: 'schedule', status: 'failed', detail: `cannot fit: ${p.message}`, fix };
}

/** How long a first sync takes at the plan's quota, from the source's record count (by default only before the first sync). */
async function checkFirstSync({ rt, id, handle, signal, now }: CheckRun, always?: boolean): Promise<CheckResult[]> {
  if (!always) {
    for (const entity of handle.config.entities) if (await rt.checkpoints.get(id, entity)) return [];
  }
  try {
    const e = await estimateConnectionFirstSync(rt, id, { signal, now: now() });
    if (!e) return [];
    const counts = e.entities.map((x) => `${x.entity} ${x.records}`).join(', ');
    const detail = `${e.records} record(s) (${counts}): ~${e.calls} calls, about ${formatDays(e.days)} at the ${e.limitedBy === 'day' ? 'daily cap' : e.limitedBy === 'month' ? "app's month budget" : 'minute limit'} (counting cost ${e.countCalls} call(s))`;
    return [{ check: 'first sync', status: 'ok', detail: e.days > 1 ? `warning, slow: ${detail}` : detail }];
  } catch (err) {
    return [vendorFailure('first sync', err, handle.config.system, id)];
  }
}

/** Billing: the service key on one page of one invoice; the attachment key on a read of attachments. */
async function checkBillingKeys({ handle, signal, now }: CheckRun): Promise<CheckResult[]> {
  const billing = handle.billing;
  const checks: CheckResult[] = [];
  let invoiceNumber: string | undefined;
  try {
    const page = await billing.client.listInvoices({ pageSize: 1 }, { signal, retries: 0 });
    invoiceNumber = page.docs[0]?.invoiceNumber ?? undefined;
    checks.push({ check: 'billing key', status: 'ok', detail: `accepted (company ${billing.company})` });
  } catch (err) {
    checks.push(billingFailure('billing key', err, 'billing.apiKey (or the connection billing.apiKey)'));
  }
  if (!billing.canAttach) {
    checks.push({
      check: 'attachment key',
      status: 'skipped',
      detail: 'no attachment key configured: ERP document links are not attached',
    });
    return checks;
  }
  try {
    // An invoice number that cannot exist when billing holds none: a 404 then means the key was accepted.
    await billing.client.listInvoiceAttachments(
      { invoiceNumber: invoiceNumber ?? `erp-sync-check-${now()}` },
      { signal, retries: 0 },
    );
    checks.push({ check: 'attachment key', status: 'ok', detail: 'accepted' });
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404)
      checks.push({ check: 'attachment key', status: 'ok', detail: 'accepted (no such invoice, as expected)' });
    else
      checks.push(
        billingFailure('attachment key', err, 'billing.attachmentKey (or the connection billing.attachmentKey)'),
      );
  }
  return checks;
}

/**
 * Whether billing gets links to the vendor's PDFs (a vendor that serves them only: QuickBooks, Xero):
 * a setting, not a call, so never a failure; `skipped` says which setting is missing.
 */
function checkPdfLinks({ rt, handle }: CheckRun): CheckResult[] {
  if (!handle.connector.documents) return [];
  const off = documentLinksOffReason(rt.config.http);
  if (off)
    return [{ check: 'PDF links', status: 'skipped', detail: `no links to the vendor's PDFs in billing: ${off}` }];
  if (!handle.billing.canAttach)
    return [{ check: 'PDF links', status: 'skipped', detail: 'no attachment key: the links are not attached' }];
  return [{ check: 'PDF links', status: 'ok', detail: `signed links on ${rt.config.http.publicUrl}` }];
}

function billingFailure(check: string, err: unknown, setting: string): CheckResult {
  const detail = message(err);
  if (err instanceof AuthError)
    return {
      check,
      status: 'failed',
      detail,
      fix: `billing refused the key: set ${setting} to a key of the billing company`,
    };
  return {
    check,
    status: 'failed',
    detail,
    fix: 'billing did not answer: check billing.url and the network, then run again',
  };
}
