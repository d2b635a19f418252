import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/pipeline/checkpoints.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { Ledger, type LedgerEntry, REPAIR_HASH } from '../../src/pipeline/ledger.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * Jobs that meet on one record or one stream, driven in the racing order step by step (each step is
 * one store operation, as the job would call it): what the later writer writes must not undo what the
 * earlier one committed in between.
 */
describe('lost updates between concurrent jobs', () => {
  const prefix = testPrefix('lost-updates');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let ledger: Ledger;
  let upserts: UpsertState;
  let checkpoints: Checkpoints;
  beforeAll(() => {
    redis = connect();
    ledger = new Ledger(redis, keys);
    upserts = new UpsertState(redis, keys);
    checkpoints = new Checkpoints(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  const V1 = '2026-03-01T10:00:00.000Z';
  const V2 = '2026-03-02T10:00:00.000Z';
  const entry = (version: string, hash: string, total: string): LedgerEntry => ({
    hash,
    version,
    billingId: 'c-inv-7',
    number: 'INV-7',
    writtenAt: Date.parse(version),
    jobId: `job-${hash}`,
    fields: { invoiceNumber: 'INV-7', invoiceTotal: total, exchangeRate: null },
  });
  /** An upsert job writing `e` to billing and committing it, as the upsert processor does. */
  const upsertCommits = async (erpId: string, e: LedgerEntry) => {
    const begun = await upserts.begin('c', 'invoices', erpId, undefined, 60_000, e.jobId);
    expect(begun.lock).toBeDefined();
    expect(await upserts.commit('c', 'invoices', erpId, e, begun.lock!.owner, e.jobId!)).toBe(true);
  };

  it('given reconcile read version 1 of a record the source deleted, when an upsert commits version 2 before reconcile marks the delete, then version 2 survives, marked deleted', async () => {
    await upsertCommits('7', entry(V1, 'h1', '100'));
    const [read] = await ledger.getMany('c', 'invoices', ['7']); // reconcile's read: version 1, not yet marked
    expect(read).toMatchObject({ version: V1, hash: 'h1' });

    await upsertCommits('7', entry(V2, 'h2', '250')); // an upsert commits in between
    expect(await ledger.markSourceDeleted('c', 'invoices', '7', '2026-03-03T00:00:00.000Z')).toBe(true);

    expect(await ledger.get('c', 'invoices', '7')).toEqual({
      ...entry(V2, 'h2', '250'),
      sourceDeletedAt: '2026-03-03T00:00:00.000Z',
    });
  });

  it('given a pull read version 1 of a record whose delete it then reads, when an upsert commits version 2 first, then version 2 survives and the delete is the newest version', async () => {
    await upsertCommits('8', entry(V1, 'h1', '100'));
    const [known] = await ledger.getMany('c', 'invoices', ['8']); // the pull's page read
    expect(known?.sourceDeletedAt).toBeUndefined();

    await upsertCommits('8', entry(V2, 'h2', '250'));
    const deletedAt = '2026-03-04T00:00:00.000Z';
    expect(await ledger.markSourceDeleted('c', 'invoices', '8', deletedAt, { bumpVersion: true })).toBe(true);

    expect(await ledger.get('c', 'invoices', '8')).toEqual({
      ...entry(V2, 'h2', '250'),
      version: deletedAt,
      sourceDeletedAt: deletedAt,
    });
    // An upsert of version 2 still queued can no longer write over the delete.
    expect(await ledger.put('c', 'invoices', '8', entry(V2, 'h2', '250'))).toBe(false);
  });

  it('given reconcile found version 1 drifted, when an upsert commits version 2 before the repair request, then version 2 survives with only its hash forgotten', async () => {
    await upsertCommits('9', entry(V1, 'h1', '100'));
    const [drifted] = await ledger.getMany('c', 'invoices', ['9']); // reconcile's read: field mismatch on version 1
    expect(drifted?.version).toBe(V1);

    await upsertCommits('9', entry(V2, 'h2', '250'));
    expect(await ledger.requestRepair('c', 'invoices', ['9', 'never-written'])).toBe(1);

    const after = await ledger.get('c', 'invoices', '9');
    expect(after).toEqual({ ...entry(V2, 'h2', '250'), hash: REPAIR_HASH });
    expect(Ledger.repairRequested(after)).toBe(true);
    expect(await ledger.get('c', 'invoices', 'never-written')).toBeUndefined();
  });

  it('given a pull read the checkpoint, when a repair rewinds the stream before the pull saves, then the rewind is kept and the next pull reads from it', async () => {
    await checkpoints.save('c', 'invoices', { cursor: '2026-03-10T00:00:00.000Z', page: 1 });
    const pull = await checkpoints.read<{ cursor: string | null; page: number }>('c', 'invoices'); // the pull starts

    // The repair rewinds the stream to just before the oldest drifted version…
    expect(await checkpoints.rewindCheckpoint('c', 'invoices', '2026-03-01T09:59:59.000Z')).toBe(true);
    // … and the pull, reading on, saves a page and then its final cursor: both refused.
    expect(
      await checkpoints.save(
        'c',
        'invoices',
        { cursor: '2026-03-11T00:00:00.000Z', page: 2 },
        { rewindsSeen: pull.rewinds },
      ),
    ).toBe(false);
    expect(
      await checkpoints.save(
        'c',
        'invoices',
        { cursor: '2026-03-12T00:00:00.000Z', page: 0 },
        { rewindsSeen: pull.rewinds },
      ),
    ).toBe(false);

    const next = await checkpoints.read<{ cursor: string | null; page: number }>('c', 'invoices');
    expect(next.checkpoint?.state).toEqual({ cursor: '2026-03-01T09:59:59.000Z', page: 1 });
    // The next pull started after the rewind: its saves go through.
    expect(
      await checkpoints.save(
        'c',
        'invoices',
        { cursor: '2026-03-12T00:00:00.000Z', page: 0 },
        { rewindsSeen: next.rewinds },
      ),
    ).toBe(true);
    expect((await checkpoints.get<{ cursor: string }>('c', 'invoices'))?.state.cursor).toBe('2026-03-12T00:00:00.000Z');
  });

  it('given a checkpoint already before the repair point, or none, then a rewind never moves a stream forward', async () => {
    await checkpoints.save('c', 'customers', { cursor: '2026-02-01T00:00:00.000Z' });
    expect(await checkpoints.rewindCheckpoint('c', 'customers', '2026-03-01T00:00:00.000Z')).toBe(false);
    expect((await checkpoints.get<{ cursor: string }>('c', 'customers'))?.state.cursor).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(await checkpoints.rewindCheckpoint('c', 'no-checkpoint-yet', '2026-03-01T00:00:00.000Z')).toBe(false);
    expect(await checkpoints.get('c', 'no-checkpoint-yet')).toBeUndefined();
  });
});
