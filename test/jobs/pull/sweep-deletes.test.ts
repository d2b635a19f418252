import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../../app/create-runtime.js';
import { startWorkers, type WorkerService } from '../../../app/worker-service.js';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { validateSettings } from '../../../connectors/registry.js';
import { QUEUES, queuePrefix, type PullPayload } from '../../../jobs/catalog.js';
import type { PullResult } from '../../../jobs/pull/types.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import type { Runtime } from '../../../jobs/runtime.js';
import { startBillingEmulator, type BillingEmulator } from '../../../sandbox/billing/billing-emulator.js';
import { startTallyEmulator, type TallyEmulator } from '../../../sandbox/tally/index.js';
import { utcDate } from '../../../src/billing/dates.js';
import { parseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/observability/logger.js';
import { workerConnection } from '../../../src/redis.js';
import { Cleanups } from '../../support/cleanups.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../../support/redis.js';

const CONNECTION = 'tally-sweep';
const KEY = 'sweep-test-key';

/**
 * TallyPrime leaves no tombstone: the scheduled deletes sweep (jobs/pull/sweep-deletes.ts) lists every GUID
 * and applies what is gone as every vendor's source delete is applied: the ledger entry marked, billing left
 * as it is, reconciliation reporting `delete_not_reflected` for a person.
 */
describe('deletes sweep (Tally)', () => {
  const cleanups = new Cleanups();
  const prefix = testPrefix('tally-deletes-sweep');
  let tally: TallyEmulator;
  let billing: BillingEmulator;
  let rt: Runtime;
  let workers: WorkerService;
  let events: QueueEvents;

  const sweep = async (entity: PullPayload['entity']): Promise<PullResult> => {
    const job = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity, deletes: true });
    return (await job.waitUntilFinished(events, 60_000)) as PullResult;
  };

  beforeAll(async () => {
    const redis = connect();
    cleanups.add(async () => {
      await dropPrefix(redis, prefix);
      redis.disconnect();
    });
    tally = await startTallyEmulator({
      port: 0,
      host: '127.0.0.1',
      seed: 5,
      invoices: 12,
      creditNotes: 2,
      customers: 6,
    });
    cleanups.add(() => tally.close());
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: KEY, companyId: 'acme' }],
      attachmentKeys: [{ key: `${KEY}-attach`, companyId: 'acme' }],
    });
    cleanups.add(() => billing.close());
    const config = parseConfig(
      {
        billing: { url: billing.url, apiKey: KEY, attachmentKey: `${KEY}-attach`, baseCurrency: 'INR' },
        redis: { url: TEST_REDIS_URL, prefix },
        connections: [
          {
            id: CONNECTION,
            system: 'tally',
            originSource: 'OTHER',
            schedule: { everySeconds: 3600, deletesEverySeconds: 0 },
            settleDelaySeconds: 0,
            // The emulator has no per-minute limit; ranges this small make the listing several requests.
            rateBudget: { perMinute: 100_000, concurrency: 1 },
            settings: { url: tally.url, company: tally.companyName, encoding: 'utf-8', rangeSize: 2 },
          },
        ],
      },
      {},
      validateSettings,
      'test config',
    );
    rt = await createRuntime(
      config,
      TEST_REDIS_URL,
      createLogger({ level: process.env.TEST_LOG ?? 'warn', format: 'json' }),
    );
    cleanups.add(() => rt.close());
    workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
    cleanups.add(() => workers.stop(5_000));
    const connection = workerConnection(TEST_REDIS_URL);
    events = new QueueEvents(QUEUES.pull, { connection, prefix: queuePrefix(prefix, QUEUES.pull) });
    cleanups.add(async () => {
      await events.close();
      connection.disconnect();
    });
    await events.waitUntilReady();
    await runBackfill(
      rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: '2025-04-01', to: '2026-03-31' },
      { quiet: true },
    );
  }, 60_000);

  afterAll(() => cleanups.run());

  it('given every voucher synced, when nothing was deleted, then the sweep marks nothing', async () => {
    expect(await sweep('invoices')).toMatchObject({ deleted: 0 });
  });

  it('given a Sales voucher deleted in Tally and another altered, when the sweep runs, then the deleted one alone is marked deleted in the ledger and reconciliation reports it for a person, billing unchanged', async () => {
    const [gone, altered] = tally.store.invoices().filter((v) => !v.isCancelled);
    tally.store.deleteVoucher(gone!.guid);
    tally.store.editVoucher(altered!.guid, 'altered before the sweep', { bumpQuantity: true });
    const before = (await rt.ledger.getMany(CONNECTION, 'invoices', [gone!.guid]))[0]!;
    expect(before.sourceDeletedAt).toBeUndefined();

    expect(await sweep('invoices')).toMatchObject({ deleted: 1 });

    const [entry, kept] = await rt.ledger.getMany(CONNECTION, 'invoices', [gone!.guid, altered!.guid]);
    expect(entry!.sourceDeletedAt).toBeDefined();
    expect(entry!.version).toBe(before.version);
    expect(kept!.sourceDeletedAt).toBeUndefined();
    const today = utcDate(Date.now());
    const r = await runReconcile(rt, { connectionId: CONNECTION, from: today, to: today });
    const item = r.items.find((i) => i.kind === 'delete_not_reflected');
    expect(item).toMatchObject({ invoiceId: before.billingId });
    expect(r.counts.delete_not_reflected).toBe(1);
    // Billing keeps the invoice as it was: a delete is a person's act there (as for every vendor).
    const listed = await rt.billingFor(CONNECTION).listInvoices({ originSource: ['OTHER'], pageSize: 100 });
    expect(listed.docs.some((d) => d.invoiceId === before.billingId)).toBe(true);

    // A second sweep finds it marked already: nothing more.
    expect(await sweep('invoices')).toMatchObject({ deleted: 0 });
  });

  it('given a customer ledger deleted in Tally (one without vouchers), when the customers sweep runs, then its ledger entry is marked deleted', async () => {
    const used = new Set(tally.store.vouchers().map((v) => v.partyLedgerName));
    const unused = tally.store.customers().find((l) => !used.has(l.name))!;
    expect((await rt.ledger.getMany(CONNECTION, 'customers', [unused.guid]))[0]).toBeDefined();
    tally.store.deleteLedger(unused.guid);

    expect(await sweep('customers')).toMatchObject({ deleted: 1 });
    expect((await rt.ledger.getMany(CONNECTION, 'customers', [unused.guid]))[0]!.sourceDeletedAt).toBeDefined();
  });
});
