import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { FaultConfigInput } from '../../sandbox/kit/faults.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * P15 (docs/reliability.md): no secret in logs or in Redis job data. The billing API key, the billing
 * attachment key, the Zoho client secret and refresh token are canary strings (and the Zoho access
 * token issued during the run is one too, once known). A real CLI worker runs a backfill at LOG_LEVEL
 * debug through the failure paths that log errors: billing 401s (a wrong attachment key, so every
 * share-link upload is refused, plus two injected on the service key: permanent, quarantined), connection
 * resets (got's RequestError, whose `options` hold every request header), 503s (retried), and a Zoho
 * 401 that forces a token refresh (client secret and refresh token sent to the token endpoint).
 * Then every line the worker wrote, its /metrics, the output of the commands an operator runs (`status`,
 * `connections`, `token status`, `token rekey`), and every Redis key under the prefix — job hashes (data,
 * opts, failedReason, stacktrace, returnvalue), event streams, ledger, quarantine (with replay payloads),
 * checkpoints, quotas, and the token store — are searched for the canaries.
 *
 * The token store keeps the refresh token (and the current access token) in Redis so that every worker
 * of a connection shares one refresh; with ERP_SYNC_TOKEN_KEY set, as here, they are sealed there, so
 * no canary appears in plain text in Redis at all.
 *
 * One record per job (`upsertBatchSize: 1`): the fault phases below wait for request counts that one
 * record per job produces.
 */
const canary = (what: string) => `CANARY-${what}-${randomBytes(6).toString('hex')}`;
/** The key the worker and the commands seal tokens under. */
const TOKEN_KEY = randomBytes(32).toString('base64');

/** Every value of every key under `prefix`, the token store included, as text. */
async function dumpRedis(redis: Redis, prefix: string): Promise<{ text: string; keys: number; jobHashes: number }> {
  const parts: string[] = [];
  let keys = 0;
  let jobHashes = 0;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) {
      keys++;
      const type = await redis.type(key);
      let value: unknown;
      if (type === 'string') value = await redis.get(key);
      else if (type === 'hash') value = await redis.hgetall(key);
      else if (type === 'list') value = await redis.lrange(key, 0, -1);
      else if (type === 'set') value = await redis.smembers(key);
      else if (type === 'zset') value = await redis.zrange(key, 0, -1, 'WITHSCORES');
      else if (type === 'stream') value = await redis.xrange(key, '-', '+');
      if (type === 'hash' && /:(upsert|pull|backfill):[^:]+$/.test(key) && 'data' in (value as Record<string, string>))
        jobHashes++;
      parts.push(key, JSON.stringify(value));
    }
  } while (cursor !== '0');
  return { text: parts.join('\n'), keys, jobHashes };
}

describe('given secrets set to canary strings', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'canary',
      invoices: 100,
      secrets: {
        billingApiKey: canary('billing-api-key'),
        billingAttachmentKey: canary('billing-attachment-key'),
        zohoClientSecret: canary('zoho-client-secret'),
        zohoRefreshToken: `1000.${canary('zoho-refresh-token')}`,
      },
      // The worker's attachment key is not one billing knows: every share-link upload is refused (401).
      billingAcceptsAttachmentKey: 'the-attachment-key-billing-knows',
      sync: { upsertConcurrency: 2, upsertBatchSize: 1 },
    });
  });
  afterAll(() => p?.close());

  it('when a worker syncs through 401s, connection resets, 503s and a forced token refresh, then no canary appears in its logs, /metrics, the output of commands or Redis (the token store holds them sealed)', async () => {
    const { rt } = p;
    const billingFaults = (f: FaultConfigInput) => p.billing.faults.set({ latencyMs: 30, ...f });
    const count = (status: number) => p.journal().filter((e) => e.status === status).length;
    billingFaults({ errorNext: 2, errorStatus: 401 });
    const worker = await p.spawnWorker(['pull', 'upsert', 'backfill'], {
      LOG_LEVEL: 'debug',
      ERP_SYNC_TOKEN_KEY: TOKEN_KEY,
    });
    const { runId } = await p.backfill();

    // Zoho refuses the current access token once, early in the read: the client refreshes it (client
    // secret and refresh token sent to the token endpoint) and goes on.
    const tokenCalls = () => p.zoho.journal.list({ path: '/oauth/v2/token' }).length;
    await until(
      'the first Zoho reads',
      () => p.zoho.journal.list().filter((e) => e.path.startsWith('/books/') && e.status === 200).length >= 2,
      30_000,
      5,
    );
    const before = tokenCalls();
    p.zoho.faults.set({ errorNext: 1, errorStatus: 401 });
    await until(
      'a forced Zoho token refresh',
      () => p.zoho.journal.list().some((e) => e.status === 401) && tokenCalls() > before,
      60_000,
      5,
    );

    await until('two billing 401s', () => count(401) >= 2, 60_000, 20);
    // Resets and 503s long enough to outlast the client's in-process retries (1 + 2 per call), so job
    // attempts fail and are logged with their error.
    billingFaults({ resetRate: 1 });
    await until('connection resets', () => count(0) >= 12, 60_000, 5);
    billingFaults({ errorNext: 12, errorStatus: 503 });
    await until('billing 503s', () => count(503) >= 12, 60_000, 5);

    await p.waitForBackfill(runId, 90_000);
    // The tokens are sealed in Redis: the access token canary is what the sealed value opens to.
    const sealer = TokenSealer.withKeys(TOKEN_KEY);
    const sealedAccess = await rt.redis.hget(`${p.prefix}:token:${CONNECTION}`, 'accessToken');
    const accessToken = sealedAccess ? sealer.open(sealedAccess, `${CONNECTION}:accessToken`) : undefined;
    const metricsUrl = /"url":"(http:\/\/[^"]+)"/.exec(worker.output())?.[1];
    expect(metricsUrl).toBeDefined();
    const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(metrics).toContain(`erpsync_connection_credentials_ok{connection="${CONNECTION}"} 1`);
    // What an operator runs while investigating.
    const env = { ...p.secretEnv, ERP_SYNC_TOKEN_KEY: TOKEN_KEY };
    const file = await p.configFile();
    const commands = [
      ['status', '--config', file],
      ['status', '--json', '--config', file],
      ['connections', '--json', '--config', file],
      ['token', 'status', '--connection', CONNECTION, '--config', file],
      ['token', 'status', '--connection', CONNECTION, '--json', '--config', file],
      ['token', 'rekey', '--config', file],
    ];
    let commandOutput = '';
    for (const args of commands) {
      const r = await runCli(args, { env, timeoutMs: 30_000 });
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
      commandOutput += `${r.out}\n${r.err}\n`;
    }
    expect(commandOutput).toContain(`sealed under key ${sealer.currentKeyId}`);
    expect(commandOutput).toMatch(/re-sealed 0 token value\(s\)/);
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });

    const logs = worker.output();
    // The failure paths were taken and logged.
    expect(logs).toContain('job failed permanently');
    expect(logs).toContain('job attempt failed');
    expect(logs).toMatch(/network error ECONNRESET|socket hang up|network error/);
    expect(logs).toContain('503');
    expect(logs).toContain('access token refreshed');
    const quarantined = await rt.quarantine.list(CONNECTION);
    expect(
      quarantined.filter((q) => q.reason === 'BILLING_AUTH' && q.message.includes('/invoice/attachment/upload')).length,
    ).toBeGreaterThan(0);

    const canaries = { ...p.secrets, ...(accessToken ? { zohoAccessToken: accessToken } : {}) };
    expect(Object.keys(canaries)).toContain('zohoAccessToken');
    const redis = await dumpRedis(rt.redis, p.prefix);
    // Job data was scanned: the jobs kept, and the payloads of quarantined records (a quarantined
    // record's failed job is removed; its entry keeps the payload, and the scan reads it).
    expect(redis.jobHashes + quarantined.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const [name, value] of Object.entries(canaries)) {
      if (logs.includes(value)) found.push(`${name} in the worker's logs`);
      if (redis.text.includes(value)) found.push(`${name} in Redis`);
      if (metrics.includes(value)) found.push(`${name} in /metrics`);
      if (commandOutput.includes(value)) found.push(`${name} in command output`);
    }
    expect(found).toEqual([]);
    // The token store does hold the refresh token (the one place it belongs), sealed: the scan above read
    // the very value that opens to it.
    const sealedRefresh = (await rt.redis.hget(`${p.prefix}:token:${CONNECTION}`, 'refreshToken'))!;
    expect(redis.text).toContain(sealedRefresh);
    expect(sealer.open(sealedRefresh, `${CONNECTION}:refreshToken`)).toBe(p.secrets.zohoRefreshToken);
    expect(logs).not.toContain('OAuth tokens are stored unencrypted');
    // And the config file the worker read holds references, not secrets.
    const yaml = await readFile(worker.proc.spawnargs[worker.proc.spawnargs.indexOf('--config') + 1]!, 'utf8');
    expect(yaml).toContain('${REL_BILLING_API_KEY}');
    for (const value of Object.values(p.secrets)) expect(yaml).not.toContain(value);

    console.info(
      `[canary] ${Object.keys(canaries).length} canaries; ${logs.split('\n').length} log lines (debug) with ${count(401)}×401 (${quarantined.length} quarantined BILLING_AUTH), ${count(0)} resets, ${count(503)}×503, ` +
        `${tokenCalls()} Zoho token calls; ${redis.keys} Redis keys (${redis.jobHashes} job hashes, the token store sealed) scanned, /metrics and ${commands.length} commands' output; 0 found`,
    );
  }, 150_000);
});
