import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * The config the memory benchmarks run erp-sync with: one connection (an emulator's demo entry), invoices
 * only, no settle delay, vendor and billing budgets far above what the emulators serve, so the measured
 * process is never waiting on a limit. Returns the file's path.
 */
export async function writeSyncBenchConfig(o: {
  billingUrl: string;
  billingKey: string;
  redisUrl: string;
  prefix: string;
  connection: Record<string, unknown>;
  /** Seconds between scheduled pulls (the worker bench); the backfill bench does not use the schedule. */
  everySeconds?: number;
}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-bench-'));
  const file = join(dir, 'config.yaml');
  const budget = (o.connection.rateBudget ?? {}) as Record<string, number>;
  const settings = (o.connection.settings ?? {}) as Record<string, unknown>;
  await writeFile(
    file,
    stringify({
      billing: { url: o.billingUrl, apiKey: o.billingKey, rateLimit: { max: 100_000, durationMs: 1000 } },
      redis: { url: o.redisUrl, prefix: o.prefix },
      sync: { upsertConcurrency: 32, backlogHighWater: 5_000 },
      connections: [
        {
          ...o.connection,
          entities: ['invoices'],
          settleDelaySeconds: 0,
          schedule: { everySeconds: o.everySeconds ?? 3600 },
          rateBudget: { ...budget, perMinute: 10_000_000 },
          // Zoho lists invoices without their lines: one detail call each, as many at once as it allows.
          settings: o.connection.system === 'zoho-books' ? { ...settings, detailConcurrency: 5 } : settings,
        },
      ],
    }),
  );
  return file;
}
