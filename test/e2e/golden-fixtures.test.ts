import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, utcDate } from '../../src/billing/dates.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../sandbox/quickbooks/index.js';
import { NEW_ZEALAND_TENANT, startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { runCli } from '../support/cli.js';
import { connect, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

/**
 * The vendors' own published examples (test/fixtures/golden/<vendor>/, sources in each README.md) run
 * through the whole path: replayed into the vendor's sandbox in the vendor's JSON (POST /__admin/records
 * and /__admin/organisation) → the built CLI `erp-sync backfill` → the billing sandbox. Every field of
 * what the worker sent for each record is compared with the body derived by hand beside the fixture
 * (`*.expected.json`, derivation in `*.md`), and billing must hold it; records the mapper must not send
 * are expected in quarantine with their reason, or skipped (drafts).
 *
 * Needs `npm run build` (dist/) and a Redis.
 */
type Json = Record<string, any>;
type Entity = 'invoices' | 'credit-notes' | 'customers';

interface Pick {
  file: string;
  /** Dotted path into the published response: `Invoices`, `Organisations.0`. */
  pick: string;
  /** Put a single object into an array (a tax group read one at a time, replayed as a list). */
  wrap?: boolean;
}

export interface Manifest {
  connection: string;
  system: 'quickbooks' | 'xero' | 'zoho-books';
  originSource: string;
  from: string;
  billingBaseCurrency: string;
  organisation: Record<string, Pick>;
  replay: Array<Pick & { entity: string }>;
  expect: Array<{ entity: Entity; erpId: string; body?: string; quarantined?: string; skipped?: string }>;
}

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const VENDORS = ['quickbooks', 'xero', 'zoho-books'] as const;

async function fixture(vendor: string, file: string): Promise<Json> {
  return JSON.parse(await readFile(new URL(`${vendor}/${file}`, GOLDEN), 'utf8')) as Json;
}

async function picked(vendor: string, p: Pick): Promise<unknown> {
  const value = p.pick.split('.').reduce<unknown>((v, k) => (v as Json)[k], await fixture(vendor, p.file));
  return p.wrap ? [value] : value;
}

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
}

/** The vendor's sandbox with as little generated data as it allows, and the connection settings that reach it. */
async function startVendor(
  system: Manifest['system'],
): Promise<{ url: string; settings: (organisationId?: string) => Json; close(): Promise<void> }> {
  if (system === 'quickbooks') {
    const emu = await startQuickBooksEmulator({ records: 0, customers: 1, creditMemos: 0 });
    // QBO ids are small integers: the one customer the generator insists on would collide with the
    // published examples' (CustomerRef 1), so the company starts empty.
    emu.store.clear();
    return {
      url: emu.url,
      settings: () => ({
        ...QBO_SANDBOX_DEFAULTS,
        realmId: emu.realmId,
        baseUrl: emu.url,
        tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      }),
      close: () => emu.close(),
    };
  }
  if (system === 'xero') {
    const emu = await startXeroEmulator({ records: 0, contacts: 1, creditNotes: 0, tenants: [NEW_ZEALAND_TENANT] });
    return {
      url: emu.url,
      settings: () => ({
        clientId: XERO_SANDBOX_DEFAULTS.clientId,
        clientSecret: XERO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: XERO_SANDBOX_DEFAULTS.refreshToken,
        tenantId: NEW_ZEALAND_TENANT.tenantId,
        baseUrl: emu.apiBase,
        tokenUrl: emu.tokenUrl,
      }),
      close: () => emu.close(),
    };
  }
  const emu = await startZohoEmulator({
    records: 0,
    customers: 1,
    vendors: 0,
    creditNotes: 0,
    ratePerMinute: 0,
    dailyLimit: 0,
  });
  return {
    url: emu.url,
    settings: (organisationId) => ({
      organizationId: organisationId ?? emu.organizationId,
      clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
      clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
      refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
      baseUrl: emu.apiBase,
      accountsUrl: emu.url,
      dailyCallLimit: 0,
    }),
    close: () => emu.close(),
  };
}

/** Every body the worker sent billing (2xx), the last one per record, by entity and ERP id. */
function sentBodies(billing: BillingEmulator): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const e of billing.journal.list()) {
    if (e.method !== 'POST' || e.status < 200 || e.status > 299 || e.body === undefined) continue;
    const body = JSON.parse(e.body) as Json;
    if (e.path === '/external/invoice/upsert') out.set(`invoices:${body.invoice.erpId}`, body.invoice);
    else if (e.path === '/external/creditNotes/upsert')
      out.set(`credit-notes:${body.creditNote.erpId}`, body.creditNote);
    else if (e.path === '/external/customer') out.set(`customers:${body.erpId}`, body);
  }
  return out;
}

/** What billing holds for a record (the stored input, after billing's own parsing). */
function held(billing: BillingEmulator, entity: Entity, erpId: string): Json | undefined {
  const company = billing.store.company('golden');
  if (entity === 'invoices') return company.invoices.find((i) => i.input.erpId === erpId)?.input as Json | undefined;
  if (entity === 'credit-notes')
    return [...company.creditNotes.values()].find((c) => c.input.erpId === erpId)?.input as Json | undefined;
  return company.customers.find((c) => c.details.erpId === erpId)?.details as Json | undefined;
}

describe('golden fixtures: the vendors’ published examples, end to end through erp-sync backfill', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    cleanups.length = 0;
  });

  it.each(VENDORS)(
    'given %s’s published examples replayed into its sandbox, when erp-sync backfill runs, then billing receives exactly the bodies derived by hand and the rest is quarantined or skipped with its reason',
    async (vendor) => {
      const manifest = (await fixture(vendor, 'manifest.json')) as unknown as Manifest;
      const billing = await startBillingEmulator({
        port: 0,
        keys: [{ key: 'golden-key', companyId: 'golden' }],
        baseCurrency: { golden: manifest.billingBaseCurrency },
        journalBodies: true,
      });
      cleanups.push(() => billing.close());
      const source = await startVendor(manifest.system);
      cleanups.push(() => source.close());

      // Given: the organisation and the records, in the vendor's own JSON.
      const organisation: Json = {};
      for (const [key, p] of Object.entries(manifest.organisation)) organisation[key] = await picked(vendor, p);
      await post(`${source.url}/__admin/organisation`, organisation);
      const replayed: Array<{ entity: string; id: string }> = [];
      for (const r of manifest.replay) {
        const value = await picked(vendor, r);
        const records = Array.isArray(value) ? value : [value];
        await post(`${source.url}/__admin/records`, { entity: r.entity, records });
        for (const rec of records as Json[])
          replayed.push({
            entity: r.entity,
            id: String(
              rec.Id ??
                rec.InvoiceID ??
                rec.CreditNoteID ??
                rec.ContactID ??
                rec.invoice_id ??
                rec.creditnote_id ??
                rec.contact_id,
            ),
          });
      }

      // When: the built CLI backfills every entity over the fixtures' dates.
      const dir = await mkdtemp(join(tmpdir(), 'golden-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const prefix = `test-golden-${randomBytes(3).toString('hex')}`;
      cleanups.push(async () => {
        const r = connect();
        await dropPrefix(r, prefix);
        await r.quit();
      });
      const orgId =
        manifest.system === 'zoho-books' ? String((organisation.organization as Json).organization_id) : undefined;
      const config = {
        billing: { url: billing.url, apiKey: 'golden-key', baseCurrency: manifest.billingBaseCurrency },
        redis: { url: TEST_REDIS_URL, prefix },
        sync: { backoffMs: 50, backfillWindowDays: 366 },
        connections: [
          {
            id: manifest.connection,
            system: manifest.system,
            originSource: manifest.originSource,
            schedule: { everySeconds: 3600 },
            lookbackSeconds: 120,
            settleDelaySeconds: 0,
            rateBudget: { perMinute: 100_000, concurrency: 8 },
            settings: source.settings(orgId),
          },
        ],
      };
      const file = join(dir, 'erp-sync.yaml');
      await writeFile(file, JSON.stringify(config, null, 2));
      const to = addDays(utcDate(Date.now()), 1);
      const run = await runCli(
        [
          'backfill',
          '--connection',
          manifest.connection,
          '--entity',
          'all',
          '--from',
          manifest.from,
          '--to',
          to,
          '--json',
          '--config',
          file,
        ],
        {
          timeoutMs: 120_000,
        },
      );
      expect(run.signal, run.err).toBeNull();
      // Exit 1 = the run finished with records in quarantine (expected for some fixtures); 2 = it could not run.
      expect([0, 1], run.err).toContain(run.code);
      const dlq = await runCli(['dlq', 'list', '--connection', manifest.connection, '--json', '--config', file]);
      expect(dlq.code, dlq.err).toBe(0);
      const quarantined = new Map((JSON.parse(dlq.out) as Json[]).map((q) => [`${q.entity}:${q.erpId}`, q]));
      const sent = sentBodies(billing);

      if (process.env.GOLDEN_PRINT) {
        const out = join(process.env.GOLDEN_PRINT, vendor);
        await mkdir(out, { recursive: true });
        for (const [k, v] of sent)
          await writeFile(join(out, `${k.replace(/[:/]/g, '_')}.sent.json`), JSON.stringify(v, null, 2));
        await writeFile(join(out, 'quarantine.json'), JSON.stringify([...quarantined.values()], null, 2));
        await writeFile(join(out, 'backfill.json'), run.out + run.err);
      }

      // Then: each expectation, field by field.
      for (const e of manifest.expect) {
        const key = `${e.entity}:${e.erpId}`;
        if (e.body) {
          expect(quarantined.get(key), `${key} should not be quarantined`).toBeUndefined();
          const expected = await fixture(vendor, e.body);
          expect(sent.get(key), `${key}: the body the worker sent`).toEqual(expected);
          expect(held(billing, e.entity, e.erpId), `${key}: what billing holds`).toMatchObject(expected);
        } else if (e.quarantined) {
          expect(quarantined.get(key)?.reason, `${key}: quarantine reason`).toBe(e.quarantined);
          expect(sent.has(key), `${key} must not reach billing`).toBe(false);
        } else {
          expect(quarantined.has(key), `${key} is skipped (${e.skipped}), not quarantined`).toBe(false);
          expect(sent.has(key), `${key} is skipped (${e.skipped}), not sent`).toBe(false);
        }
      }
      // Every replayed record has an expectation: no fixture goes unchecked.
      const expected = new Set(manifest.expect.map((e) => e.erpId.toLowerCase()));
      expect(replayed.filter((r) => !expected.has(r.id.toLowerCase()))).toEqual([]);
    },
    180_000,
  );
});
