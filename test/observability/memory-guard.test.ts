import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RSS_MARK_MB,
  forcedCollections,
  lastResortCollect,
  MAX_GAP_MS,
  MIN_GAP_MS,
  memoryGuard,
  RssMarkError,
  rssMarkMb,
} from '../../src/observability/memory-guard.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { expectOneLineError, runCli } from '../support/cli.js';
import { type Harness, startHarness, until } from '../support/harness.js';

const MiB = 2 ** 20;

describe('rssMarkMb', () => {
  it(`given no ERP_SYNC_RSS_MARK_MB, then the mark is ${DEFAULT_RSS_MARK_MB} MiB; given 0, then there is no guard`, () => {
    expect(rssMarkMb({})).toBe(DEFAULT_RSS_MARK_MB);
    expect(rssMarkMb({ ERP_SYNC_RSS_MARK_MB: ' 150 ' })).toBe(150);
    expect(rssMarkMb({ ERP_SYNC_RSS_MARK_MB: '0' })).toBeUndefined();
  });

  it('given a mark that is not a whole number of MiB, then it is refused naming the variable and the value', () => {
    expect(() => rssMarkMb({ ERP_SYNC_RSS_MARK_MB: '180m' })).toThrow(RssMarkError);
    expect(() => rssMarkMb({ ERP_SYNC_RSS_MARK_MB: '-1' })).toThrow(
      'ERP_SYNC_RSS_MARK_MB must be a whole number of MiB (0 = no forced collections), got "-1"',
    );
  });
});

describe('memoryGuard', () => {
  /** A guard whose collection brings the RSS to `after` MiB, on a clock the test moves. */
  const guardAt = (rss: { value: number; after: number }, clock: { now: number }) => {
    const runs: number[] = [];
    const collect = () => {
      runs.push(clock.now);
      rss.value = rss.after;
    };
    const guard = memoryGuard({ markMb: 180, collect, rss: () => rss.value * MiB, now: () => clock.now });
    return { guard, runs };
  };

  it('given an RSS at or under the mark, when it checks, then nothing is collected', () => {
    const { guard, runs } = guardAt({ value: 180, after: 180 }, { now: 0 });
    expect(guard.check()).toBe(false);
    expect(runs).toEqual([]);
  });

  it(`given an RSS over the mark that a collection brings under it, then it collects, not again within ${MIN_GAP_MS / 1000} s, and again after`, () => {
    const rss = { value: 181, after: 130 };
    const clock = { now: 1_000 };
    const { guard, runs } = guardAt(rss, clock);
    const before = forcedCollections();
    expect(guard.check()).toBe(true);
    rss.value = 190;
    clock.now += MIN_GAP_MS - 1;
    expect(guard.check()).toBe(false);
    clock.now += 1;
    expect(guard.check()).toBe(true);
    clock.now += MIN_GAP_MS;
    expect(guard.check()).toBe(false); // 130 MiB after the collection
    expect(runs).toEqual([1_000, 1_000 + MIN_GAP_MS]);
    expect(guard.collections).toBe(2);
    expect(forcedCollections() - before).toBe(2);
  });

  it(`given collections that leave the RSS over the mark (memory in use, not garbage), then each waits twice as long as the last, up to ${MAX_GAP_MS / 60_000} minutes, and one that works resets the wait`, () => {
    const rss = { value: 190, after: 185 };
    const clock = { now: 0 };
    const { guard, runs } = guardAt(rss, clock);
    for (let t = 0; t <= 15 * 60_000; t += 1_000) {
      clock.now = t;
      guard.check();
    }
    const gaps = runs.slice(1).map((t, i) => (t - runs[i]!) / 1000);
    expect(gaps).toEqual([20, 40, 80, 160, 300, 300]);
    rss.after = 120;
    clock.now += MAX_GAP_MS;
    expect(guard.check()).toBe(true);
    rss.value = 181;
    clock.now += MIN_GAP_MS;
    expect(guard.check()).toBe(true);
  });

  it('given collections run, when /metrics is scraped, then erpsync_memory_forced_collections_total counts them', async () => {
    const metrics = createMetrics();
    const at = async () =>
      Number(/^erpsync_memory_forced_collections_total (\d+)$/m.exec(await metrics.registry.metrics())![1]);
    const first = await at();
    expect(first).toBe(forcedCollections());
    memoryGuard({ markMb: 1, collect: () => {}, rss: () => 2 * MiB }).check();
    expect(await at()).toBe(first + 1);
    expect(await at()).toBe(first + 1);
  });
});

describe('lastResortCollect', () => {
  it('given 60 MiB of garbage in the heap, when it runs, then the heap V8 holds shrinks by most of it', () => {
    const collect = lastResortCollect();
    let garbage: unknown[] | undefined = Array.from({ length: 60 }, () =>
      Array.from({ length: 32 * 1024 }, (_, i) => ({ i })),
    );
    const before = process.memoryUsage().heapTotal;
    expect(garbage.length).toBe(60);
    garbage = undefined;
    collect();
    expect(before - process.memoryUsage().heapTotal).toBeGreaterThan(40 * MiB);
  });
});

describe('erp-sync with ERP_SYNC_RSS_MARK_MB', () => {
  it('given a malformed mark, then it exits 2 with one line naming the variable', async () => {
    const r = await runCli(['status'], { env: { ERP_SYNC_RSS_MARK_MB: 'lots' } });
    expect(expectOneLineError(r)).toBe(
      'erp-sync: ERP_SYNC_RSS_MARK_MB must be a whole number of MiB (0 = no forced collections), got "lots"',
    );
  });
});

describe('a worker started by the CLI', () => {
  let p: Harness | undefined;
  afterAll(() => p?.close());

  it('given a mark below any Node process RSS (64 MiB), when it runs, then its guard collects and /metrics counts it', async () => {
    p = await startHarness({ name: 'memory-guard', invoices: 10 });
    const worker = await p.spawnWorker(['upsert'], { ERP_SYNC_RSS_MARK_MB: '64' });
    await worker.waitForOutput('/metrics, roles');
    const url = /erp-sync worker: (\S+\/metrics)/.exec(worker.output())?.[1];
    expect(url, worker.output()).toBeDefined();
    const count = async () =>
      Number(/^erpsync_memory_forced_collections_total (\d+)$/m.exec(await (await fetch(url!)).text())?.[1] ?? 0);
    // The guard checks every second; a collection leaving the RSS over 64 MiB doubles the wait (10 s, 20 s, …).
    expect(await until('a forced collection counted', async () => (await count()) >= 1, 20_000, 200)).toBe(true);
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });
});
