import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import { makeJobHelpers } from '../../app/job-helpers.js';
import { planReload } from '../../app/reload-config.js';
import { callerNamed, callerOf } from '../../api/auth.js';
import { type Service, startService } from '../../app/service.js';
import { ALL_ROLES } from '../../app/worker-service.js';
import { type AppConfig, loadConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startZohoEmulator, type ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { COMPANY, CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * `erp-sync worker` reloads its config on SIGHUP (app/reload-config.ts): a running service, on real
 * Redis, the billing emulator and two Zoho Books emulators (one per connection), is given a config file
 * that gains, changes and loses a connection, and files it must refuse. One test sends a real SIGHUP to
 * a child `erp-sync worker` process.
 */

const SECOND = 'zoho-b';
const SECOND_ORIGIN = 'EXTERNAL_SYSTEM_B';

type RawConfig = Omit<Harness['rawConfig'], 'reconcile'> & {
  reconcile: { windowDays: number; everySeconds?: number };
};
type RawConnection = RawConfig['connections'][number];

/** The second connection: another Zoho organisation (its own emulator), the same secrets' variables. */
function secondConnection(p: Harness, zoho: ZohoEmulator, changes: Partial<RawConnection> = {}): RawConnection {
  const first = p.rawConfig.connections[0]!;
  return {
    ...first,
    id: SECOND,
    originSource: SECOND_ORIGIN,
    settings: { ...first.settings, organizationId: zoho.organizationId, baseUrl: zoho.apiBase, accountsUrl: zoho.url },
    ...changes,
  };
}

function startSecondZoho(p: Harness): Promise<ZohoEmulator> {
  return startZohoEmulator({
    port: 0,
    seed: 11,
    organizationId: '60087654321',
    records: 15,
    customers: 5,
    creditNotes: 0,
    ratePerMinute: 0,
    dailyLimit: 0,
    clientSecret: p.secrets.zohoClientSecret,
    refreshToken: p.secrets.zohoRefreshToken,
  });
}

/** Billing's invoices of an origin (straight from the emulator's store). */
function billingInvoicesOf(p: Harness, origin: string) {
  return p.billing.store.company(COMPANY).invoices.filter((i) => i.originSource === origin);
}

/** The scheduler ids of a queue, sorted. */
async function schedulerIds(p: Harness, queue: 'pull' | 'reconcile'): Promise<string[]> {
  return (await p.rt.queues[queue].getJobSchedulers(0, -1)).map((s) => s.key).sort();
}
const sorted = (...ids: string[]) => ids.sort();

/** One sample of a metric in /metrics text, e.g. `erpsync_config_reload_total{result="ok"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('config reload of a running worker service', () => {
  let p: Harness;
  let zohoB: ZohoEmulator;
  let service: Service;
  let dir: string;
  let file: string;
  let pullEvents: QueueEvents;
  const lines: string[] = [];
  const logged = (msg: string) =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);
  const load = () => loadConfig(file, p.secretEnv, validateSettings);
  const write = (raw: unknown) => writeFile(file, toYaml(raw));
  const metrics = async () => (await fetch(`${service.httpUrl}/metrics`)).text();

  /** The first file: the pipeline's connection, pulled every 5 s, and the daily reconcile on. */
  let base: RawConfig;
  const withConnections = (connections: RawConnection[], changes: Partial<RawConfig> = {}) => ({
    ...base,
    ...changes,
    connections,
  });

  beforeAll(async () => {
    p = await startHarness({ name: 'reload-config', invoices: 20 });
    zohoB = await startSecondZoho(p);
    dir = await mkdtemp(join(tmpdir(), 'reload-config-'));
    file = join(dir, 'erp-sync.yaml');
    const first = p.rawConfig.connections[0]!;
    base = {
      ...p.rawConfig,
      reconcile: { windowDays: 2, everySeconds: 86_400 },
      connections: [{ ...first, schedule: { everySeconds: 5 } }],
    };
    await write(base);
    pullEvents = await p.queueEvents('pull');
    const logger = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(s) },
    });
    service = await startService(await load(), logger, { roles: ALL_ROLES, httpPort: 0 });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await zohoB?.close();
    await p?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('given connection A synced, when the file gains connection B and the config is reloaded, then B gets its schedulers and its records reach billing, and A goes on syncing', async () => {
    await until('connection A to be synced', async () => {
      const r = await p.compareWithSource();
      return r.expected > 0 && r.problems.length === 0;
    });
    await write(withConnections([...base.connections, secondConnection(p, zohoB)]));
    const helpers = makeJobHelpers(service.rt);

    const outcome = await service.reload(load);

    expect(outcome).toMatchObject({
      result: 'ok',
      added: [SECOND],
      removed: [],
      changed: {},
      restartNeeded: [],
      errors: [],
    });
    expect(service.rt.config.connections.map((c) => c.id)).toEqual([CONNECTION, SECOND]);
    expect(await schedulerIds(p, 'pull')).toEqual(
      sorted(
        `pull-${CONNECTION}-customers`,
        `pull-${CONNECTION}-invoices`,
        `pull-${SECOND}-customers`,
        `pull-${SECOND}-invoices`,
      ),
    );
    expect(await schedulerIds(p, 'reconcile')).toEqual(sorted(`reconcile-${CONNECTION}`, `reconcile-${SECOND}`));
    expect(logged('config reloaded')).toEqual([expect.objectContaining({ added: [SECOND], removed: [] })]);
    // The in-flight sweep, built at start, covers the new connection too.
    expect(helpers.sweep.connectionIds()).toEqual([CONNECTION, SECOND]);

    // B's scheduler fired at once: its records reach billing, each one once, under B's origin.
    await until('B to be synced', async () => {
      const inBilling = billingInvoicesOf(p, SECOND_ORIGIN).length;
      return inBilling > 0 && inBilling === (await p.rt.ledger.count(SECOND, 'invoices')) && (await p.drained());
    });
    expect((await p.rt.syncStatus.read(SECOND)).lastSuccess.invoices).toBeGreaterThan(0);

    // A's own scheduler still runs: a change in A's source reaches billing with A's next pull.
    const edited = p.zoho.store.invoices().find((i) => i.status !== 'void')!.invoice_id;
    const before = (await p.rt.ledger.get(CONNECTION, 'invoices', edited))?.version;
    p.zoho.store.editInvoice(edited);
    await until("A's edited invoice to reach billing", async () => {
      const r = await p.compareWithSource();
      return r.problems.length === 0 && (await p.rt.ledger.get(CONNECTION, 'invoices', edited))?.version !== before;
    });

    const text = await metrics();
    expect(sample(text, 'erpsync_config_reload_total{result="ok"}')).toBe(1);
    expect(sample(text, 'erpsync_config_last_reload_successful')).toBe(1);
    expect(sample(text, `erpsync_records_upserted_total{connection="${SECOND}",entity="invoices"}`)).toBeGreaterThan(0);
    expect(sample(text, `erpsync_vendor_up{connection="${SECOND}"}`)).toBe(1);
  });

  it("when a connection's settings and schedule change, then its next job sees them and its vendor client is rebuilt; an unchanged connection keeps its client", async () => {
    const rt = service.rt;
    const clientA = rt.vendorClient(CONNECTION);
    const clientB = rt.vendorClient(SECOND);
    const b = secondConnection(p, zohoB);
    await write(
      withConnections([
        ...base.connections,
        { ...b, schedule: { everySeconds: 1800 }, rateBudget: { ...b.rateBudget, perMinute: 999_999 } },
      ]),
    );

    const outcome = await service.reload(load);

    expect(outcome).toMatchObject({
      result: 'ok',
      added: [],
      removed: [],
      changed: { [SECOND]: ['schedule.everySeconds', 'rateBudget.perMinute'] },
    });
    expect(rt.connection(SECOND).config.rateBudget?.perMinute).toBe(999_999);
    expect(rt.vendorClient(CONNECTION)).toBe(clientA);
    expect(rt.vendorClient(SECOND)).not.toBe(clientB);
    expect((await p.rt.queues.pull.getJobScheduler(`pull-${SECOND}-invoices`))?.every).toBe(1_800_000);
    expect((await p.rt.queues.pull.getJobScheduler(`pull-${CONNECTION}-invoices`))?.every).toBe(5_000);
  });

  it('when keys that cannot change while running change along with an entity removed, then the rest is applied, those keys keep their running values and are logged as needing a restart, and a scheduled job of the removed entity is skipped', async () => {
    const rt = service.rt;
    const b = secondConnection(p, zohoB, { entities: ['invoices'], schedule: { everySeconds: 1800 } });
    const next = withConnections([...base.connections, { ...b, rateBudget: { ...b.rateBudget, perMinute: 999_999 } }], {
      billing: { ...base.billing, timeoutMs: 9_000 },
      sync: { ...base.sync, upsertConcurrency: 4 },
      reconcile: { ...base.reconcile, everySeconds: 43_200 },
    });
    await write(next);

    const outcome = await service.reload(load);

    expect(outcome).toMatchObject({
      result: 'ok',
      changed: { [SECOND]: ['entities'] },
      restartNeeded: ['billing.timeoutMs', 'sync.upsertConcurrency'],
    });
    expect(rt.config.sync.upsertConcurrency).toBe(8);
    expect(rt.config.billing.timeoutMs).toBe(10_000);
    expect(rt.config.reconcile.everySeconds).toBe(43_200);
    expect(Object.isFrozen(rt.config) && Object.isFrozen(rt.config.reconcile)).toBe(true);
    expect(await schedulerIds(p, 'pull')).toEqual(
      sorted(`pull-${CONNECTION}-customers`, `pull-${CONNECTION}-invoices`, `pull-${SECOND}-invoices`),
    );
    expect((await p.rt.queues.reconcile.getJobScheduler(`reconcile-${SECOND}`))?.every).toBe(43_200_000);
    const warning = logged('changed config keys take effect only after a restart; they keep their running values');
    expect(warning).toEqual([expect.objectContaining({ keys: ['billing.timeoutMs', 'sync.upsertConcurrency'] })]);
    expect(JSON.stringify(warning)).not.toContain('9000');
    expect(sample(await metrics(), 'erpsync_config_restart_required')).toBe(1);

    // A replica still running the old config schedules B's customers: the job completes as skipped.
    const job = await p.rt.queues.pull.upsertJobScheduler(
      `pull-${SECOND}-customers`,
      { every: 3_600_000 },
      { name: 'pull', data: { connectionId: SECOND, entity: 'customers' }, opts: { priority: 1 } },
    );
    expect(await job.waitUntilFinished(pullEvents, 20_000)).toEqual({ skipped: 'entity not configured' });
    expect(logged("scheduled pull job skipped: its entity is no longer among the connection's entities")).toEqual([
      expect.objectContaining({ connection: SECOND, entity: 'customers', scheduler: `pull-${SECOND}-customers` }),
    ]);
    // This replica's next reload removes the scheduler its config does not have, whoever created it.
    expect((await service.reload(load)).result).toBe('ok');
    expect(await schedulerIds(p, 'pull')).not.toContain(`pull-${SECOND}-customers`);
  });

  it('when connection B is removed, then its schedulers are gone, its checkpoint, ledger and quarantine are kept, its upserts already queued still reach billing, and its leftover jobs do not fail the workers', async () => {
    const rt = p.rt;
    const written: string[] = [];
    for await (const batch of rt.ledger.scan(SECOND, 'invoices')) for (const [id] of batch) written.push(id);
    const edited = zohoB.store
      .invoices()
      .find((i) => i.status !== 'void' && written.includes(i.invoice_id))!.invoice_id;
    const versionBefore = (await rt.ledger.get(SECOND, 'invoices', edited))!.version;

    // B's pull has enqueued the edit's upsert when B is removed; the upsert queue holds it meanwhile.
    await rt.queues.upsert.pause();
    try {
      zohoB.store.editInvoice(edited);
      const pull = await rt.queues.pull.add('pull', { connectionId: SECOND, entity: 'invoices' }, { priority: 1 });
      await pull.waitUntilFinished(pullEvents, 20_000);
      await until("the edit's upsert to be enqueued", async () => (await rt.inFlight.count(SECOND)) > 0);
      const checkpoint = await rt.checkpoints.read(SECOND, 'invoices');
      const ledgerCount = await rt.ledger.count(SECOND, 'invoices');
      const quarantined = await rt.quarantine.count(SECOND);
      expect(checkpoint).toBeDefined();

      await write(withConnections(base.connections));
      const outcome = await service.reload(load);

      expect(outcome).toMatchObject({ result: 'ok', added: [], removed: [SECOND] });
      expect(() => service.rt.connection(SECOND)).toThrow(`unknown connection "${SECOND}"`);
      expect(await schedulerIds(p, 'pull')).toEqual(
        sorted(`pull-${CONNECTION}-customers`, `pull-${CONNECTION}-invoices`),
      );
      expect(await schedulerIds(p, 'reconcile')).toEqual(sorted(`reconcile-${CONNECTION}`));
      expect(await rt.checkpoints.read(SECOND, 'invoices')).toEqual(checkpoint);
      expect(await rt.ledger.count(SECOND, 'invoices')).toBe(ledgerCount);
      expect(await rt.quarantine.count(SECOND)).toBe(quarantined);
    } finally {
      await rt.queues.upsert.resume();
    }
    await until("the removed connection's queued upsert to reach billing", async () => {
      const entry = await rt.ledger.get(SECOND, 'invoices', edited);
      return entry && entry.version !== versionBefore && (await rt.inFlight.count(SECOND)) === 0;
    });

    // A scheduled pull of B left behind completes as skipped; a pull someone asked for (a backfill window) fails, naming why.
    const scheduled = await rt.queues.pull.upsertJobScheduler(
      `pull-${SECOND}-invoices`,
      { every: 3_600_000 },
      { name: 'pull', data: { connectionId: SECOND, entity: 'invoices' }, opts: { priority: 1 } },
    );
    try {
      expect(await scheduled.waitUntilFinished(pullEvents, 20_000)).toEqual({ skipped: 'connection not configured' });
    } finally {
      await rt.queues.pull.removeJobScheduler(`pull-${SECOND}-invoices`);
    }
    expect(logged('scheduled pull job skipped: its connection is no longer in the config')).toEqual([
      expect.objectContaining({ connection: SECOND }),
    ]);
    const window = await rt.queues.pull.add(
      'pull',
      {
        connectionId: SECOND,
        entity: 'invoices',
        window: { from: '2025-01-01', to: '2025-01-31' },
        runId: 'reload-test',
      },
      { priority: 10, attempts: 1 },
    );
    await expect(window.waitUntilFinished(pullEvents, 20_000)).rejects.toThrow(`unknown connection "${SECOND}"`);
    expect(service.workers.workers.every((w) => w.isRunning())).toBe(true);

    // Its gauges go with it (their alerts would fire for a connection nobody syncs); A's stay.
    const text = await metrics();
    const gauges = text
      .split('\n')
      .filter((l) =>
        /^erpsync_(vendor_up|quarantine_records|in_flight_records|last_success_timestamp_seconds|pull_interval_seconds)\{/.test(
          l,
        ),
      );
    expect(gauges.filter((l) => l.includes(`connection="${SECOND}"`))).toEqual([]);
    expect(gauges.filter((l) => l.includes(`connection="${CONNECTION}"`)).length).toBeGreaterThan(0);
  });

  it('when the file is invalid (not YAML; or a schema error, a settings error and an unset variable), then the reload is refused, every error is logged with its path and no value, and the running config, schedulers and jobs are kept', async () => {
    const rt = service.rt;
    const running = rt.config;
    const pullSchedulers = await schedulerIds(p, 'pull');
    const canary = `sk-canary-${p.prefix}`;

    await writeFile(file, `billing:\n  url: http://127.0.0.1:1\n  apiKey: ${canary}: oops\n`);
    const notYaml = await service.reload(load);
    expect(notYaml.result).toBe('refused');
    expect(notYaml.errors).toEqual([expect.stringMatching(/is not valid YAML: .* at line 3, column \d+$/)]);

    const first = base.connections[0]!;
    await write(
      withConnections(
        [
          { ...first, settings: { ...first.settings, organizationId: 'not-a-number' } },
          secondConnection(p, zohoB, {
            id: 'zoho-c',
            settings: { ...first.settings, clientSecret: '${RELOAD_TEST_UNSET_SECRET}' },
          }),
        ],
        { sync: { ...base.sync, upsertConcurrency: 0 } },
      ),
    );
    const invalid = await service.reload(load);
    expect(invalid.result).toBe('refused');
    expect(invalid.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^sync\.upsertConcurrency: /),
        expect.stringMatching(/^connections\.0\.settings\.organizationId: /),
        'connections.1.settings.clientSecret: environment variable RELOAD_TEST_UNSET_SECRET is not set',
      ]),
    );

    expect(rt.config).toBe(running);
    expect(() => rt.connection('zoho-c')).toThrow('unknown connection');
    expect(await schedulerIds(p, 'pull')).toEqual(pullSchedulers);
    const refusals = logged('config reload refused; the running config is kept');
    expect(refusals.map((l) => l.errors)).toEqual([notYaml.errors, invalid.errors]);
    const log = lines.join('\n');
    for (const secret of [canary, p.secrets.zohoClientSecret, p.secrets.zohoRefreshToken, p.secrets.billingApiKey])
      expect(log).not.toContain(secret);
    const text = await metrics();
    expect(sample(text, 'erpsync_config_reload_total{result="refused"}')).toBe(2);
    expect(sample(text, 'erpsync_config_last_reload_successful')).toBe(0);

    // Still syncing with the running config: a change in A's source reaches billing.
    const edited = p.zoho.store.invoices().find((i) => i.status !== 'void')!.invoice_id;
    const before = (await p.rt.ledger.get(CONNECTION, 'invoices', edited))?.version;
    p.zoho.store.editInvoice(edited);
    await until(
      "A's edited invoice to reach billing",
      async () => (await p.rt.ledger.get(CONNECTION, 'invoices', edited))?.version !== before,
    );

    // Fixed, the next reload succeeds.
    await write(withConnections(base.connections));
    expect((await service.reload(load)).result).toBe('ok');
    expect(sample(await metrics(), 'erpsync_config_last_reload_successful')).toBe(1);
  });
});

describe('planReload', () => {
  const parse = (raw: Record<string, unknown>): AppConfig =>
    parseConfig(
      {
        billing: { url: 'http://127.0.0.1:4010', apiKey: 'k' },
        connections: [{ id: 'a', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A' }],
        ...raw,
      },
      {},
    );

  it('given an unchanged file, then nothing is added, removed, changed or owed a restart, and the running config object is kept', () => {
    const current = parse({});
    const plan = planReload(current, parse({}));
    expect(plan).toEqual({ config: current, added: [], removed: [], changed: {}, restartNeeded: [] });
    expect(plan.config).toBe(current);
  });

  it('given new redis, http and sync keys, then they are owed a restart and keep their running values, while the sweep schedule applies', () => {
    const current = parse({});
    const plan = planReload(
      current,
      parse({ redis: { prefix: 'other' }, http: { port: 9999 }, sync: { pullConcurrency: 2, sweepEverySeconds: 30 } }),
    );
    expect(plan.restartNeeded).toEqual(['redis.prefix', 'http.port', 'sync.pullConcurrency']);
    expect(plan.config.redis.prefix).toBe('erp-sync');
    expect(plan.config.http.port).toBe(9464);
    expect(plan.config.sync.pullConcurrency).toBe(4);
    expect(plan.config.sync.sweepEverySeconds).toBe(30);
    expect(plan.config.billing).toBe(current.billing);
  });
});

describe('planReload: the API tokens', () => {
  const parse = (http: Record<string, unknown>): AppConfig =>
    parseConfig(
      {
        billing: { url: 'http://127.0.0.1:4010', apiKey: 'k' },
        connections: [{ id: 'a', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A' }],
        http,
      },
      {},
    );
  const ops = { name: 'ops', token: 'ops-token-0123456789abcdef', role: 'operator' };
  const audit = { name: 'audit', token: 'audit-token-0123456789abcdef', role: 'viewer' };

  it('given http.tokens, publicUrl and trustedProxies changed, then they apply at once: the added token is known, the removed one is not, and no restart is owed', () => {
    const current = parse({ tokens: [ops] });
    const next = parse({ tokens: [audit], publicUrl: 'https://sync.example.com', trustedProxies: ['10.0.0.0/8'] });
    const plan = planReload(current, next);
    expect(plan.restartNeeded).toEqual([]);
    expect(callerOf(plan.config.http, audit.token)).toEqual({ name: 'audit', role: 'viewer' });
    expect(callerOf(plan.config.http, ops.token)).toBeUndefined();
    expect(callerNamed(plan.config.http, 'ops')).toBeUndefined();
    expect(plan.config.http).toMatchObject({ publicUrl: 'https://sync.example.com', trustedProxies: ['10.0.0.0/8'] });
  });
});

describe('erp-sync worker, on SIGHUP', () => {
  let p: Harness;
  let zohoB: ZohoEmulator;
  beforeAll(async () => {
    p = await startHarness({ name: 'reload-sighup', invoices: 5 });
    zohoB = await startSecondZoho(p);
  });
  afterAll(async () => {
    await p?.close();
    await zohoB?.close();
  });

  it('given the file gained a connection, when the process gets SIGHUP, then it logs the reload, schedules and syncs the new connection, and still stops on SIGTERM with exit 0', async () => {
    const worker = await p.spawnWorker(['pull', 'upsert']);
    const file = await p.configFile();
    await writeFile(
      file,
      toYaml({ ...p.rawConfig, connections: [...p.rawConfig.connections, secondConnection(p, zohoB)] }),
    );

    worker.kill('SIGHUP');
    await worker.waitForOutput('"config reloaded"');

    expect(worker.output()).toContain('"reloading the config"');
    expect(await schedulerIds(p, 'pull')).toEqual(
      sorted(
        `pull-${CONNECTION}-customers`,
        `pull-${CONNECTION}-invoices`,
        `pull-${SECOND}-customers`,
        `pull-${SECOND}-invoices`,
      ),
    );
    await until("B's invoices to reach billing", async () => billingInvoicesOf(p, SECOND_ORIGIN).length > 0);

    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('"shutting down"');
  });
});
