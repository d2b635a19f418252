import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/cli.js';
import { CONNECTION, HISTORY, type Harness, startHarness, until } from '../support/harness.js';
import { type RestartableRedis, restartableRedis } from '../support/restartable-redis.js';

/**
 * Commands survive Redis restarts. A Redis of the test's own (another port, append-only file on disk so
 * a restart keeps its data, as a production Redis would) is restarted while `erp-sync backfill` runs:
 * the command waits for it and carries on, exits 0, and every invoice is in billing.
 */
describe('given `erp-sync backfill` running on a Redis that keeps its data on disk', () => {
  let redis: RestartableRedis;
  let p: Harness;

  beforeAll(async () => {
    redis = await restartableRedis('redis-restart');
    await redis.start();
    p = await startHarness({
      name: 'redis-restart',
      invoices: 400,
      customers: 20,
      redisUrl: redis.url,
    });
  });
  afterAll(async () => {
    await p?.close().catch(() => {});
    await redis?.close();
  });

  it('when Redis restarts mid-backfill, then the command waits for it, exits 0, and nothing is lost', async () => {
    const { rt } = p;
    const child = spawnCli(
      [
        'backfill',
        '--connection',
        CONNECTION,
        '--entity',
        'invoices',
        '--from',
        HISTORY.from,
        '--to',
        HISTORY.to,
        '--json',
        '--config',
        await p.configFile(),
      ],
      { env: { ...p.secretEnv, LOG_LEVEL: 'warn' }, timeoutMs: 300_000 },
    );
    let downMs = 0;
    try {
      await until(
        'a first part of the invoices in the ledger',
        async () => (await rt.ledger.count(CONNECTION, 'invoices')) >= 40,
        90_000,
        20,
      );
      // Redis goes away, and stays away until the command has noticed (it says so on stderr).
      const stoppedAt = Date.now();
      await redis.stop();
      await until('the command to notice Redis is gone', () => child.err().includes('Redis unreachable'), 30_000, 20);
      await redis.start();
      downMs = Date.now() - stoppedAt;
      await child.exit;
    } finally {
      child.kill('SIGKILL');
    }
    const r = await child.exit;

    expect(r.signal).toBeNull();
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(r.out) as { enqueued: number; quarantinedTotal: number };
    expect(summary.quarantinedTotal).toBe(0);
    await until(
      'the test runtime back on Redis',
      async () => (await rt.ledger.count(CONNECTION, 'invoices')) > 0,
      30_000,
      100,
    );
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    console.info(
      `[redis restart] Redis down ${downMs} ms mid-backfill; backfill exited 0; ${result.inBilling}/${result.expected} invoices in billing, 0 lost; stderr said: ${JSON.stringify(r.err.trim().split('\n').slice(0, 2))}`,
    );
  }, 300_000);
});
