import { parse as parseYaml } from 'yaml';
import { ALL_ROLES } from '../app/worker-service.js';
import { type Service, startService } from '../app/service.js';
import { sandboxConfig } from '../cli/sandbox/sandbox-config.js';
import {
  pickWebhooksPort,
  sandboxWebhookWiring,
  wireWebhooks,
  type WebhookWiring,
} from '../cli/sandbox/webhook-wiring.js';
import { validateSettings } from '../connectors/registry.js';
import {
  type BillingEmulator,
  DEFAULT_ATTACHMENT_KEYS,
  DEFAULT_KEYS,
  startBillingEmulator,
} from '../sandbox/billing/billing-emulator.js';
import type { StoredInvoice } from '../sandbox/billing/billing-store.js';
import { PROFILES, type RunningSandbox } from '../sandbox/profiles.js';
import { type AppConfig, parseConfig } from '../src/config.js';
import { deleteKeysWithPrefix, type ResolvedRedis, stateConnection } from '../src/redis.js';
import { createLogger } from '../src/observability/logger.js';

/**
 * The webhook benches' rig: the billing emulator and the ERP sandboxes `erp-sync sandbox` runs, their
 * webhook senders pointed at a worker started in this process (`startService`, every role) with the config
 * `erp-sync sandbox` prints, tuned by the bench (schedule, webhooks on or off), on its own Redis prefix.
 * As test/e2e/webhooks-end-to-end.test.ts wires them.
 */
export type Erp = RunningSandbox & { system: string };
const HOST = '127.0.0.1';
export const COMPANY = DEFAULT_KEYS[0]!.companyId;

export interface WebhookRig {
  billing: BillingEmulator;
  erps: Erp[];
  wiring: WebhookWiring;
  /** The printed config, as parsed before each worker start's own tuning. */
  printed: string;
  service?: Service;
  config?: AppConfig;
  /** Starts (again) a worker on the printed config as `tune` changes it (raw, before parsing). */
  startWorker(tune: (raw: Record<string, any>) => void): Promise<Service>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookRig(opts: {
  redisUrl: string;
  prefix: string;
  records: number;
  /** The sandboxes to start, in order (a system named n times starts n of them, seeds 1…n); default one of each. */
  systems?: readonly string[];
  /** Billing's company keys (default the sandbox's two). */
  billingKeys?: ReadonlyArray<{ key: string; companyId: string }>;
  /** Every Zoho Books sandbox's per-minute limit (the sandbox's default is Zoho's real 100). */
  zohoPerMinute?: number;
}): Promise<WebhookRig> {
  const billing = await startBillingEmulator({
    port: 0,
    host: HOST,
    seed: 1,
    journalBodies: true,
    keys: opts.billingKeys ? [...DEFAULT_KEYS, ...opts.billingKeys] : undefined,
  });
  const erps: Erp[] = [];
  const seeds = new Map<string, number>();
  for (const system of opts.systems ?? PROFILES.map((p) => p.name)) {
    const p = PROFILES.find((x) => x.name === system)!;
    const seed = (seeds.get(system) ?? 0) + 1;
    seeds.set(system, seed);
    erps.push({ ...(await p.start({ port: 0, host: HOST, seed, records: opts.records })), system });
  }
  // Every Zoho Books sandbox: each is an organisation of its own, with its own limiter.
  if (opts.zohoPerMinute)
    for (const zoho of erps.filter((e) => e.system === 'zoho-books'))
      await admin(zoho, '/__admin/limits', { ratePerMinute: opts.zohoPerMinute });
  const wiring = sandboxWebhookWiring(HOST, await pickWebhooksPort(undefined, undefined, HOST), 1);
  await wireWebhooks(erps, wiring);
  const printed = sandboxConfig(
    {
      url: billing.url,
      close: () => billing.close(),
      describe: () => [],
      configEntry: () => [],
      keys: DEFAULT_KEYS,
      attachmentKeys: DEFAULT_ATTACHMENT_KEYS,
    },
    erps,
    wiring,
  );
  const rig: WebhookRig = {
    billing,
    erps,
    wiring,
    printed,
    async startWorker(tune) {
      const raw = parseYaml(printed) as Record<string, any>;
      raw.redis = { url: opts.redisUrl, prefix: opts.prefix };
      raw.http = { port: 0, host: HOST };
      tune(raw);
      rig.config = parseConfig(raw, process.env, validateSettings);
      rig.service = await startService(rig.config, createLogger({ level: 'error', format: 'json' }), {
        roles: ALL_ROLES,
        httpPort: 0,
      });
      return rig.service;
    },
    async stopWorker() {
      await rig.service?.stop();
      rig.service = undefined;
    },
    async close() {
      await rig.stopWorker();
      for (const e of erps) await e.close().catch(() => {});
      await billing.close().catch(() => {});
    },
  };
  return rig;
}

/** POSTs an admin body to an emulator; its JSON answer. */
export async function admin<T = unknown>(erp: { url: string }, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${erp.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} ${JSON.stringify(body)}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Changes at the vendor through the sandbox (`POST /__admin/changes`): each change's id and modification time. */
export async function change(
  erp: Erp,
  body: { entity: string; op: string; count?: number; ids?: string[] },
): Promise<Array<{ id: string; modifiedAt: string }>> {
  return (await admin<{ changes: Array<{ id: string; modifiedAt: string }> }>(erp, '/__admin/changes', body)).changes;
}

/** The vendor requests the sandbox served (its journal: admin routes are not in it) after sequence `since`. */
export async function served(erp: Erp, since = 0): Promise<Array<{ seq: number; status: number; path: string }>> {
  const res = await fetch(`${erp.url}/__admin/journal?since=${since}`);
  type Entry = { seq: number; status: number; path: string };
  // Zoho Books answers {entries}; QuickBooks and Xero the list itself.
  const body = (await res.json()) as Entry[] | { entries: Entry[] };
  return Array.isArray(body) ? body : body.entries;
}

/** Billing's invoice of one ERP id and origin, in the sandbox company. */
export function billed(rig: WebhookRig, originSource: string, erpId: string): StoredInvoice | undefined {
  for (const inv of rig.billing.store.company(COMPANY).invoices)
    if (inv.input.erpId === erpId && inv.input.invoiceOriginSource === originSource) return inv;
  return undefined;
}

/** Resolves when `check` holds, polling every `everyMs`, or rejects after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 25) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The worker has nothing to do now: no pull or upsert waiting or running (scheduled repeats and records set
 * aside for later, such as a credit note waiting for its invoice, aside).
 */
export async function waitIdle(rig: WebhookRig, timeoutMs = 120_000): Promise<void> {
  const rt = rig.service!.rt;
  let quiet = 0;
  await waitFor(
    'the worker to go idle',
    async () => {
      const pull = await rt.queues.pull.getJobCounts('wait', 'prioritized', 'active');
      const upsert = await rt.queues.upsert.getJobCounts('wait', 'prioritized', 'active');
      const busy = [...Object.values(pull), ...Object.values(upsert)].some((n) => n > 0);
      quiet = busy ? 0 : quiet + 1;
      return quiet >= 3;
    },
    timeoutMs,
    200,
  );
}

/** Until every sandbox's webhook sender is active (Xero's intent to receive answered). */
export async function waitSendersActive(rig: WebhookRig): Promise<void> {
  for (const erp of rig.erps)
    await waitFor(
      `${erp.system}'s webhook sender active`,
      async () =>
        ((await (await fetch(`${erp.url}/__admin/webhooks`)).json()) as { status: string }).status === 'active',
      30_000,
      200,
    );
}

/** A bench's end: the rig closed, its keys dropped from Redis, and the Redis it resolved stopped (when it started one). */
export async function closeBench(rig: WebhookRig, redis: ResolvedRedis, prefix: string): Promise<void> {
  await rig.close();
  const r = stateConnection(redis.url);
  await deleteKeysWithPrefix(r, prefix);
  r.disconnect();
  await redis.stop();
}
