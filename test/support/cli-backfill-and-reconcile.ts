import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { utcDate } from '../../src/billing/dates.js';
import { type CliRun, runCli } from './cli.js';
import { COMPANY, CONNECTION, HISTORY, type Harness } from './harness.js';

/**
 * The pipeline's config as an operator keeps it for a Redis with a password: no `redis.url` in the file
 * (the URL, password included, goes in REDIS_URL), written beside the pipeline's own config file.
 */
export async function configWithoutRedisUrl(p: Harness): Promise<string> {
  const { redis, ...rest } = p.rawConfig;
  const file = join(dirname(await p.configFile()), 'erp-sync-redis-from-env.yaml');
  await writeFile(file, toYaml({ ...rest, redis: { prefix: redis.prefix } }));
  return file;
}

export function backfillArgs(configFile: string): string[] {
  return [
    'backfill',
    '--connection',
    CONNECTION,
    '--from',
    HISTORY.from,
    '--to',
    HISTORY.to,
    '--json',
    '--config',
    configFile,
  ];
}

/**
 * `erp-sync backfill` of the generated history, run as a user runs it (the built CLI, its own in-process
 * workers, `env` its whole environment besides PATH), then `erp-sync reconcile --deep` of today (the day
 * every record was written) once the source's voids are mirrored in billing by hand (reconcile's
 * void_not_reflected is for a person). Asserts the backfill exits 0 with nothing quarantined, billing
 * matches the source record for record, and the reconcile exits 0 with no drift.
 */
export async function cliBackfillAndReconcile(p: Harness, configFile: string, env: Record<string, string>) {
  const t0 = Date.now();
  const backfill = await runCli(backfillArgs(configFile), { env, timeoutMs: 120_000 });
  const seconds = (Date.now() - t0) / 1000;
  expect(backfill.signal, backfill.err).toBeNull();
  expect(backfill.code, backfill.err).toBe(0);
  expect((JSON.parse(backfill.out) as { quarantinedTotal: number }).quarantinedTotal).toBe(0);

  const result = await p.compareWithSource();
  expect(result.problems).toEqual([]);
  expect(result.inBilling).toBe(result.expected);
  expect(result.expected + result.quarantinedByMapping.size).toBe(p.zoho.store.invoices().length);
  expect(await p.rt.ledger.count(CONNECTION, 'invoices')).toBe(result.expected);

  // Source voids mirrored in billing by a person (no sync can void there), so the deep reconcile starts clean.
  await p.mirrorSourceVoids();
  const today = utcDate(Date.now());
  const reconcile: CliRun = await runCli(
    [
      'reconcile',
      '--connection',
      CONNECTION,
      '--from',
      today,
      '--to',
      today,
      '--deep',
      '--json',
      '--config',
      configFile,
    ],
    {
      env,
      timeoutMs: 60_000,
    },
  );
  expect(reconcile.code, reconcile.err).toBe(0);
  const report = JSON.parse(reconcile.out) as {
    total: number;
    items: unknown[];
    checked: { ledger: number; source: number };
  };
  expect(report.items).toEqual([]);
  expect(report.total).toBe(0);
  expect(report.checked.ledger).toBe(result.expected);
  return { backfill, reconcile, seconds, inBilling: result.inBilling, report };
}
