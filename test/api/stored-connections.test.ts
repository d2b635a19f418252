import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../../src/mapping/ids.js';
import { purgeExpiredConnections } from '../../operations/remove-connection.js';
import { startZohoEmulator, type ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { until } from '../support/harness.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

/**
 * Connections as data, through the API of a running worker (real Redis, the billing emulator and Zoho
 * emulators on loopback): an admin creates a connection, the worker starts it within seconds and its
 * invoices reach billing; a change is applied; a removal stops its schedules and jobs at once. The YAML's
 * connections stay read-only; a company-limited admin manages only its companies' connections.
 */

const ID = 'zoho-api';
const ORIGIN = 'EXTERNAL_SYSTEM_C';
const DAY_MS = 86_400_000;

describe('the API: connections created, changed and removed as data', () => {
  let api: ApiUnderTest;
  let zoho: ZohoEmulator;
  const globexAdmin = { name: 'globex-admin', token: `gadm-${randomBytes(16).toString('hex')}`, role: 'admin' };
  const envBefore = { ...process.env };

  /** The new connection's entry: the YAML acme connection's settings (`${VAR}` references) on another organisation, without its grant. */
  function entry(changes: Record<string, unknown> = {}) {
    const acme = api.tc.rawConfig.connections.find((c) => c.id === ACME.connection)!;
    const { refreshToken: _grant, ...settings } = acme.settings as Record<string, unknown>;
    return {
      id: ID,
      system: 'zoho-books',
      originSource: ORIGIN,
      entities: ['customers', 'invoices'],
      schedule: { everySeconds: 5 },
      settings: { ...settings, organizationId: zoho.organizationId, baseUrl: zoho.apiBase, accountsUrl: zoho.url },
      webhooks: {},
      ...changes,
    };
  }
  const admin = () => api.tokens.admin.token;
  const billingInvoices = () =>
    api.tc.billing.store.company(ACME.company).invoices.filter((i) => i.originSource === ORIGIN);
  const pullSchedulers = async () =>
    (await api.service.rt.queues.pull.getJobSchedulers(0, -1)).filter((s) => s.key.startsWith(`pull-${ID}-`));

  beforeAll(async () => {
    api = await startApi('api-stored-connections', { tokens: [{ ...globexAdmin, companies: [GLOBEX.company] }] });
    // The worker's environment holds the vendor app's secret, as a deployment's does.
    Object.assign(process.env, api.tc.secretEnv);
    zoho = await startZohoEmulator({
      port: 0,
      seed: 21,
      organizationId: '60011112222',
      records: 9,
      customers: 4,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
      clientSecret: api.tc.secrets.zohoClientSecret,
      refreshToken: api.tc.secrets.zohoRefreshToken,
    });
    // The grant, as the consent flow stores it (never in the connection).
    await api.service.rt.tokens.replace(ID, { refreshToken: api.tc.secrets.zohoRefreshToken });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await zoho?.close();
    for (const k of Object.keys(process.env)) if (!(k in envBefore)) delete process.env[k];
  });

  it('given a running worker, when an admin creates a connection, then it answers 201 with the webhook secret shown once, the worker starts it within seconds, and its invoices reach billing', async () => {
    const created = await api.post('/connections', admin(), { connection: entry() });

    expect(created.status).toBe(201);
    expect(created.body.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    // Acme's connection writes with the default keys: its company is named by the key's fingerprint.
    expect(created.body.connection).toMatchObject({
      id: ID,
      origin: 'api',
      company: api.service.rt.connection(ACME.connection).billing.company,
      webhookSecret: 'set',
    });
    expect(JSON.stringify(created.body.connection)).not.toContain(created.body.webhookSecret);
    expect(JSON.stringify(created.body.connection)).not.toContain(api.tc.secrets.zohoClientSecret);

    await until('the worker to sync the new connection', async () => {
      const inBilling = billingInvoices().length;
      return inBilling > 0 && inBilling === (await api.service.rt.ledger.count(ID, 'invoices'));
    });
    // Each one is an invoice of the new organisation, under the new connection's ids.
    const ids = new Set(zoho.store.invoices().map((i) => invoiceIdFor(ID, i.invoice_id)));
    expect(billingInvoices().filter((i) => !ids.has(i.input.invoiceId))).toEqual([]);
    // The worker runs it with the secret it generated (what verifies the vendor's deliveries).
    expect(api.service.rt.config.connections.find((c) => c.id === ID)?.webhooks?.secret).toBe(
      created.body.webhookSecret,
    );

    const listed = await api.get<{ connections: Array<{ id: string; origin: string }> }>('/connections', admin());
    expect(listed.body.connections.map((c) => [c.id, c.origin])).toEqual([
      [ACME.connection, 'config'],
      [GLOBEX.connection, 'config'],
      [ID, 'api'],
    ]);
    const audit = await api.get<{ entries: Array<{ action: string }> }>('/audit', admin());
    expect(audit.body.entries.filter((e) => e.action === 'connections.create')).toEqual([
      expect.objectContaining({ who: api.tokens.admin.name, outcome: 'ok', status: 201 }),
    ]);
  });

  it('when an admin changes its schedule, then the worker applies it within seconds (its pull schedulers run on the new interval)', async () => {
    const changed = await api.patch(`/connections/${ID}`, admin(), { connection: { schedule: { everySeconds: 600 } } });

    expect(changed.status).toBe(200);
    expect(changed.body.connection.connection.schedule).toEqual({ everySeconds: 600 });
    expect(changed.body.webhookSecret).toBeUndefined();
    await until('the schedulers to run every 600 s', async () => {
      const s = await pullSchedulers();
      return s.length === 2 && s.every((x) => x.every === 600_000);
    });
    expect(api.service.rt.config.connections.find((c) => c.id === ID)?.schedule.everySeconds).toBe(600);
  });

  it('given a YAML connection, when an admin creates one of its id, changes or removes it, then each is refused 409 as read-only', async () => {
    const create = await api.post('/connections', admin(), { connection: entry({ id: ACME.connection }) });
    const patch = await api.patch(`/connections/${ACME.connection}`, admin(), {
      connection: { entities: ['invoices'] },
    });
    const remove = await api.delete(`/connections/${ACME.connection}`, admin());

    for (const r of [create, patch, remove]) expect(r.status).toBe(409);
    expect(patch.body.message).toContain('read-only');
    expect(create.body.message).toContain('YAML');
  });

  it("given an admin limited to globex, when it creates a connection of acme, then 403; it does not see acme's stored connection nor may change it", async () => {
    const create = await api.post('/connections', globexAdmin.token, {
      connection: entry({ id: 'zoho-other', originSource: 'EXTERNAL_SYSTEM_C' }),
    });
    const listed = await api.get<{ connections: Array<{ id: string }> }>('/connections', globexAdmin.token);
    const patch = await api.patch(`/connections/${ID}`, globexAdmin.token, { connection: { entities: ['invoices'] } });

    expect(create.status).toBe(403);
    expect(listed.body.connections.map((c) => c.id)).toEqual([GLOBEX.connection]);
    expect(patch.status).toBe(404);
  });

  it('when the body is invalid or carries a secret, then 400 names the path', async () => {
    const acme = api.tc.rawConfig.connections.find((c) => c.id === ACME.connection)!;
    const { organizationId: _o, ...noOrganisation } = entry().settings as Record<string, unknown>;
    const cases: Array<[Record<string, unknown>, string]> = [
      [entry({ id: 'zoho-x', settings: noOrganisation }), 'body.connection.settings.organizationId'],
      [entry({ id: 'zoho-x', originSource: 'INTERNAL' }), 'body.connection.originSource'],
      [
        entry({ id: 'zoho-x', settings: { ...entry().settings, clientSecret: 'a-literal-secret' } }),
        'body.connection.settings.clientSecret',
      ],
      [
        entry({
          id: 'zoho-x',
          settings: { ...entry().settings, refreshToken: (acme.settings as { refreshToken: string }).refreshToken },
        }),
        'body.connection.settings.refreshToken',
      ],
      [entry({ id: 'zoho-x', webhooks: { secret: 'x'.repeat(40) } }), 'body.connection.webhooks.secret'],
    ];
    for (const [connection, path] of cases) {
      const r = await api.post('/connections', admin(), { connection });
      expect(r.status, path).toBe(400);
      expect(r.body.path).toBe(path);
      expect(r.body.message).not.toContain('a-literal-secret');
    }
    const viewer = await api.post('/connections', api.tokens.viewer.token, { connection: entry({ id: 'zoho-x' }) });
    expect(viewer.status).toBe(403);
  });

  it('when an admin removes it, then its schedulers and queued jobs are gone at once, the worker drops it, and its state is kept until the retention purges it', async () => {
    await api.post(`/connections/${ID}/sync`, admin(), {});
    const removed = await api.delete(`/connections/${ID}`, admin());

    expect(removed.status).toBe(200);
    expect(removed.body.schedulers.sort()).toEqual([`pull-${ID}-customers`, `pull-${ID}-invoices`]);
    expect(removed.body.purgedKeys).toBeNull();
    expect(Date.parse(removed.body.purgeAfter) - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(await pullSchedulers()).toEqual([]);
    const queued = await api.service.rt.queues.pull.getJobs(['wait', 'prioritized', 'delayed'], 0, -1);
    expect(queued.filter((j) => j?.data?.connectionId === ID)).toEqual([]);
    await until('the worker to drop the connection', async () =>
      api.service.rt.config.connections.every((c) => c.id !== ID),
    );
    expect((await api.post(`/connections/${ID}/sync`, admin(), {})).status).toBe(404);
    // Its state stays for reconciliation and history until the retention ends.
    expect(await api.service.rt.ledger.count(ID, 'invoices')).toBeGreaterThan(0);
    expect(await purgeExpiredConnections(api.service.rt, Date.now() + 29 * DAY_MS)).toEqual([]);
    expect(await purgeExpiredConnections(api.service.rt, Date.now() + 31 * DAY_MS)).toEqual([ID]);
    expect(await api.service.rt.ledger.count(ID, 'invoices')).toBe(0);
    expect(await api.service.rt.storedConnections.get(ID)).toBeUndefined();
  });
});
