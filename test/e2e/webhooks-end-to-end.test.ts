import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Service } from '../../app/service.js';
import type { RunningBilling } from '../../cli/sandbox/billing-sandbox.js';
import { sandboxConfig } from '../../cli/sandbox/sandbox-config.js';
import {
  pickWebhooksPort,
  sandboxWebhookWiring,
  wireWebhooks,
  type WebhookWiring,
} from '../../cli/sandbox/webhook-wiring.js';
import { validateSettings } from '../../connectors/registry.js';
import { collectStatus } from '../../operations/collect-status.js';
import { collectConnections } from '../../operations/list-connections.js';
import { enqueuePullsNow } from '../../operations/sync-now.js';
import {
  type BillingEmulator,
  DEFAULT_ATTACHMENT_KEYS,
  DEFAULT_KEYS,
  startBillingEmulator,
} from '../../sandbox/billing/billing-emulator.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';
import { PROFILES, type RunningSandbox } from '../../sandbox/profiles.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import { Cleanups } from '../support/cleanups.js';
import { startTestService } from '../support/harness-runtime.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../support/redis.js';
import { until } from '../support/until.js';

/**
 * Webhooks end to end, on the parts `erp-sync sandbox` runs: billing and the three ERP sandboxes, their
 * webhook senders wired to a worker started with the printed config (webhooks section included). The
 * incremental schedule is an hour, so only a delivery can explain a change reaching billing within the
 * test; a dropped delivery is found by a safety-net pull and counted in erpsync_webhook_missed_total.
 * The emulators and the config are the sandbox command's (its wiring is what this tests), not the test
 * harness's; the service and the clean-up are the harness's parts.
 */
const prefix = testPrefix('webhooks-e2e');
const cleanups = new Cleanups();
const HOST = '127.0.0.1';
const COMPANY = DEFAULT_KEYS[0]!.companyId;

type Erp = RunningSandbox & { system: string };
let billing: BillingEmulator;
let erps: Erp[] = [];
let wiring: WebhookWiring;
let printed: string;
let config: AppConfig;
let service: Service | undefined;
let lines: string[] = [];

/** The billing emulator as `erp-sync sandbox` starts it (its store kept, to read billing's state). */
function asRunning(b: BillingEmulator): RunningBilling {
  return {
    url: b.url,
    close: () => b.close(),
    describe: () => [],
    configEntry: () => [],
    keys: DEFAULT_KEYS,
    attachmentKeys: DEFAULT_ATTACHMENT_KEYS,
  };
}

/** The printed config, on the test's own Redis prefix and free ports, polled only once an hour. */
function workerConfig(text: string): AppConfig {
  const raw = parseYaml(text) as Record<string, any>;
  raw.redis = { url: TEST_REDIS_URL, prefix };
  raw.http = { port: 0, host: HOST };
  for (const c of raw.connections) {
    c.schedule.everySeconds = 3600;
    // A pull reads up to now − the settle delay: the safety-net case requests one right after its change.
    c.settleDelaySeconds = 0;
  }
  // The printed config keeps Zoho's real 100 calls a minute (as does the sandbox, lifted below); the first
  // pulls, checks and reconcile at start spend it, and a read by id would then wait for the next minute.
  for (const c of raw.connections) if (c.system === 'zoho-books') c.rateBudget = { perMinute: 100_000 };
  return parseConfig(raw, process.env, validateSettings);
}

const originOf = (system: string) => config.connections.find((c) => c.system === system)!.originSource;

/** Billing's invoice for an ERP id of one system (by its origin), if any. */
function billed(system: string, erpId: string): StoredInvoice | undefined {
  const origin = originOf(system);
  for (const inv of billing.store.company(COMPANY).invoices)
    if (inv.input.erpId === erpId && inv.input.invoiceOriginSource === origin) return inv;
  return undefined;
}

async function change(erp: Erp, body: Record<string, unknown>): Promise<Array<{ id: string; modifiedAt: string }>> {
  const res = await fetch(`${erp.url}/__admin/changes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { changes?: Array<{ id: string; modifiedAt: string }>; error?: string };
  if (!res.ok) throw new Error(`${erp.system} /__admin/changes ${JSON.stringify(body)}: ${res.status} ${json.error}`);
  return json.changes!;
}

async function webhookSettings(erp: Erp, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${erp.url}/__admin/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${erp.system} /__admin/webhooks: ${res.status} ${await res.text()}`);
}

/** Deliveries the sandbox's sender has dropped since its subscription was set up. */
async function droppedCount(erp: Erp): Promise<number> {
  const res = await fetch(`${erp.url}/__admin/webhooks`);
  return ((await res.json()) as { stats: { dropped: number } }).stats.dropped;
}

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${service!.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

beforeAll(async () => {
  const redis = connect();
  cleanups.add(async () => {
    await dropPrefix(redis, prefix);
    redis.disconnect();
  });
  billing = await startBillingEmulator({ port: 0, host: HOST, seed: 1 });
  cleanups.add(() => billing.close());
  for (const p of PROFILES) {
    const erp = { ...(await p.start({ port: 0, host: HOST, seed: 1, records: 6 })), system: p.name };
    cleanups.add(() => erp.close());
    erps.push(erp);
  }
  const zoho = erps.find((e) => e.system === 'zoho-books')!;
  await fetch(`${zoho.url}/__admin/limits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ratePerMinute: 100_000 }),
  });
  wiring = sandboxWebhookWiring(HOST, await pickWebhooksPort(undefined, undefined, HOST), 1);
  await wireWebhooks(erps, wiring);
  printed = sandboxConfig(asRunning(billing), erps, wiring);
  config = workerConfig(printed);
  ({ service, lines } = await startTestService(cleanups, config, { logLevel: process.env.E2E_LOG_LEVEL ?? 'warn' }));
}, 120_000);

afterAll(async () => {
  // The service's warnings, for a failure's story (E2E_LOG_LEVEL=info for more).
  if (lines.length > 0) console.warn(lines.join(''));
  await cleanups.run();
});

describe('webhooks end to end', () => {
  it('given the config `erp-sync sandbox` prints, then it parses with its webhooks section and every connection has a secret', () => {
    expect(printed).toMatch(/^webhooks:$/m);
    expect(config.webhooks).toMatchObject({ port: wiring.port, host: wiring.host });
    // TallyPrime sends no webhooks: its connection is polled and has no secret.
    expect(config.connections.find((c) => c.system === 'tally')?.webhooks).toBeUndefined();
    for (const c of config.connections.filter((c) => c.system !== 'tally')) {
      expect(c.webhooks?.secret).toBe(wiring.secretOf(c.system));
      expect(c.schedule.withWebhooksEverySeconds).toBe(wiring.withWebhooksEverySeconds);
    }
  });

  // A delete leaves billing's lifecycle as it is (an upsert never changes it): not asserted on billing here.
  for (const system of ['zoho-books', 'quickbooks', 'xero'])
    it(`given ${system} invoices created, edited and voided through /__admin/changes, then billing reflects each through webhooks alone`, async () => {
      const erp = erps.find((e) => e.system === system)!;
      const [created] = await change(erp, { entity: 'invoices', op: 'create', count: 1 });
      await until(`${system}: the created invoice in billing`, () => billed(system, created!.id), 30_000);

      const before = JSON.stringify(billed(system, created!.id)!.input);
      await change(erp, { entity: 'invoices', op: 'edit', ids: [created!.id] });
      await until(
        `${system}: the edit in billing`,
        () => JSON.stringify(billed(system, created!.id)!.input) !== before,
        30_000,
      );

      // Billing keeps an upserted invoice's lifecycle: the void reaches it as the mapped invoice (status, amounts).
      const edited = JSON.stringify(billed(system, created!.id)!.input);
      await change(erp, { entity: 'invoices', op: 'void', ids: [created!.id] });
      await until(
        `${system}: the void in billing`,
        () => JSON.stringify(billed(system, created!.id)!.input) !== edited,
        30_000,
      );
    }, 120_000);

  // At least one: a change the connection's first pull (at start) already wrote, or two coalesced into one
  // read, is written once, so the count of webhook writes is not the count of changes.
  it('given the changes above, then their freshness is observed on the webhook path of each connection with webhooks', async () => {
    // TallyPrime sends none: its changes come by the pull.
    for (const c of config.connections.filter((x) => x.webhooks))
      expect(
        await metric(
          'erpsync_change_to_billing_seconds_count',
          `connection="${c.id}",entity="invoices",path="webhook"`,
        ),
      ).toBeGreaterThanOrEqual(1);
  });

  it('given the changes above, then `status` and `connections` show the change → billing p50 and p99 of each connection, from the samples every worker shares', async () => {
    const status = await collectStatus(service!.rt);
    const listed = await collectConnections(service!.rt);
    for (const c of config.connections) {
      const f = status.connections.find((s) => s.id === c.id)!.freshness;
      expect(f.samples).toBeGreaterThanOrEqual(1);
      expect(f.p50Seconds).not.toBeNull();
      expect(f.p99Seconds!).toBeGreaterThanOrEqual(f.p50Seconds!);
      expect(listed.connections.find((l) => l.id === c.id)!.freshness).toEqual(f);
    }
  });

  // The sender decides a drop when it flushes (a timer after the change is recorded), with the settings of
  // that moment: drops are turned back off only once the sandbox counts this delivery dropped, or a flush
  // after the reset would send it and the webhook path, not the safety net, would write it.
  it('given a delivery dropped by the sandbox, when a safety-net pull runs, then the change reaches billing and is counted as missed', async () => {
    const erp = erps.find((e) => e.system === 'xero')!;
    const connection = config.connections.find((c) => c.system === 'xero')!.id;
    const missedBefore = await metric('erpsync_webhook_missed_total', `connection="${connection}"`);
    const droppedBefore = await droppedCount(erp);
    await webhookSettings(erp, { dropRate: 1 });
    const [dropped] = await change(erp, { entity: 'invoices', op: 'create', count: 1 });
    await until('the sandbox dropping its delivery', async () => (await droppedCount(erp)) > droppedBefore, 30_000);
    await webhookSettings(erp, { dropRate: 0 });
    expect(billed('xero', dropped!.id)).toBeUndefined();
    // The safety net: the connection's incremental pull, requested (as the long schedule would run it).
    await enqueuePullsNow(service!.rt, connection, ['invoices'], 'now');
    await until('the dropped invoice in billing', () => billed('xero', dropped!.id), 60_000);
    await until(
      'the miss counted',
      async () => (await metric('erpsync_webhook_missed_total', `connection="${connection}"`)) > missedBefore,
      30_000,
    );
  }, 120_000);
});
