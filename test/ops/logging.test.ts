import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../jobs/define-job.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { freePort } from '../../src/http/free-port.js';
import { CONNECTION, type Harness, REPO_ROOT, startHarness, until } from '../support/harness.js';
import { opsService } from './support/ops-service.js';
import { requireBinary } from './support/require-binary.js';

/** A logger writing JSON lines into an array. */
function capture(level = 'trace') {
  const lines: string[] = [];
  const logger = createLogger({ level, format: 'json', destination: { write: (s: string) => void lines.push(s) } });
  return { logger, lines, text: () => lines.join('') };
}

const canary = (what: string) => `CANARY-${what}-${randomBytes(6).toString('hex')}`;

describe('log format: JSON lines by default, pretty on a TTY', () => {
  // A child process, so stdout really is (or is not) a terminal. It runs the compiled logger.
  const DIST = join(REPO_ROOT, 'dist/src/observability/logger.js');
  const SRC = join(REPO_ROOT, 'src/observability/logger.ts');
  const script = `import('${DIST}').then(({ createLogger }) => { const l = createLogger(); l.info({ connection: 'zoho-in' }, 'hello from the logger'); l.flush?.(); setTimeout(() => {}, 300); })`;

  beforeAll(() => {
    if (!existsSync(DIST) || statSync(DIST).mtimeMs < statSync(SRC).mtimeMs) {
      throw new Error(`${DIST} is missing or older than ${SRC}: run \`npm run build\` (npm test builds first)`);
    }
  });

  it('writes one JSON object per line, with level, time, service and the bound fields, when stdout is a pipe', () => {
    const r = spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 30,
      service: 'erp-sync',
      connection: 'zoho-in',
      msg: 'hello from the logger',
    });
    expect(typeof entry.time).toBe('number');
  });

  it('writes coloured human-readable lines when stdout is a terminal', () => {
    const scriptBin = requireBinary('script', 'bsdutils');
    const r = spawnSync(scriptBin, ['-qec', `${process.execPath} -e "${script.replaceAll('"', '\\"')}"`, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'info', TERM: 'xterm' },
      timeout: 20_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/\u001b\[\d+m/); // ANSI colour
    const plain = out.replace(/\u001b\[\d+m/g, '');
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello from the logger/);
    expect(plain).toMatch(/connection: "zoho-in"/);
    expect(plain).toMatch(/service: "erp-sync"/);
    expect(plain).not.toContain('{"level"');
  });
});

describe('one child logger per job', () => {
  it('binds queue, job id, connection, entity and attempt to every line a processor logs, and to its failure', async () => {
    const { logger, lines } = capture('info');
    const processor = defineJob(
      'pull',
      z.object({ connectionId: z.string(), entity: z.string() }),
      { logger, metrics: createMetrics() },
      async ({ log }) => {
        log.info('reading a page');
        throw new Error('vendor timed out');
      },
    );
    const job = {
      id: 'pull-zoho-in-invoices-42',
      data: { connectionId: 'zoho-in', entity: 'invoices' },
      attemptsMade: 1,
    } as unknown as Job;
    await expect(processor(job)).rejects.toThrow('vendor timed out');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.msg)).toEqual(['reading a page', 'job attempt failed']);
    for (const e of entries)
      expect(e).toMatchObject({
        queue: 'pull',
        jobId: 'pull-zoho-in-invoices-42',
        connection: 'zoho-in',
        entity: 'invoices',
        attempt: 2,
      });
    expect(entries[1]!.err).toMatchObject({ type: 'Error', message: 'vendor timed out' });
  });
});

describe('redaction: a canary in every secret field never reaches the log', () => {
  const c = {
    billingApiKey: canary('billing-key'),
    attachmentKey: canary('attach-key'),
    adminToken: canary('admin-token'),
    redisPassword: canary('redis-pw'),
    zohoSecret: canary('zoho-secret'),
    zohoRefresh: canary('zoho-refresh'),
    qboSecret: canary('qbo-secret'),
    qboRefresh: canary('qbo-refresh'),
    xeroSecret: canary('xero-secret'),
    xeroRefresh: canary('xero-refresh'),
    accessToken: canary('access-token'),
    bearer: canary('bearer'),
    signature: canary('signature'),
    cookie: canary('cookie'),
  };
  const all = Object.values(c);
  const leaks = (text: string) => all.filter((v) => text.includes(v));

  const config = () =>
    parseConfig(
      {
        billing: { url: 'https://billing.example.com', apiKey: '${K}', attachmentKey: '${A}' },
        redis: { url: `redis://default:${c.redisPassword}@redis.internal:6379/0` },
        http: { adminToken: '${T}' },
        connections: [
          {
            id: 'zoho-in',
            system: 'zoho-books',
            originSource: 'EXTERNAL_SYSTEM_A',
            settings: { organizationId: '1', clientId: 'id', clientSecret: c.zohoSecret, refreshToken: c.zohoRefresh },
          },
          {
            id: 'qbo-us',
            system: 'quickbooks',
            originSource: 'EXTERNAL_SYSTEM_B',
            settings: { realmId: '123', clientId: 'id', clientSecret: c.qboSecret, refreshToken: c.qboRefresh },
          },
          {
            id: 'xero-uk',
            system: 'xero',
            originSource: 'EXTERNAL_SYSTEM_C',
            settings: {
              tenantId: '00000000-0000-0000-0000-000000000000',
              clientId: 'id',
              clientSecret: c.xeroSecret,
              refreshToken: c.xeroRefresh,
            },
          },
        ],
      },
      { K: c.billingApiKey, A: c.attachmentKey, T: c.adminToken },
      // without the connectors' validators: settings stay as written (every connector's secrets)
    );

  it('holds for the whole config, logged at the top level, under a key, nested deeper, and as child bindings', () => {
    const cfg = config();
    expect(JSON.stringify(cfg)).toContain(c.xeroRefresh); // the canaries are really in there
    const { logger, text } = capture();
    logger.info(cfg, 'config at the top level');
    logger.info({ config: cfg }, 'config under a key');
    logger.info({ ctx: { app: { config: cfg } } }, 'config nested deeper');
    logger.info({ connection: cfg.connections[1], settings: cfg.connections[2]!.settings }, 'one connection');
    logger.child({ config: cfg }).info('child bindings');
    logger.info({ billing: cfg.billing, redisUrl: cfg.redis.url, http: cfg.http }, 'sections');
    expect(leaks(text())).toEqual([]);
    expect(text()).toContain('[Redacted]');
    expect(text()).toContain('redis.internal:6379'); // the URL stays useful without its password
  });

  it('holds for request and response headers, token responses and OAuth bodies, in any case and at any depth', () => {
    const { logger, text } = capture();
    const headers = {
      authorization: `Bearer ${c.bearer}`,
      'x-service-signature': c.signature,
      'x-service-attachment-upload-signature': c.signature,
      cookie: `erpsync_queue_ui=${c.cookie}`,
      'set-cookie': [`session=${c.cookie}`],
    };
    logger.info({ headers }, 'headers');
    logger.info({ req: { method: 'POST', url: '/x', headers } }, 'request');
    logger.info(
      { request: { options: { headers: { Authorization: `Zoho-oauthtoken ${c.accessToken}` } } } },
      'upper-case header',
    );
    logger.info(
      {
        response: {
          body: {
            access_token: c.accessToken,
            refresh_token: c.zohoRefresh,
            id_token: c.accessToken,
            expires_in: 3600,
          },
        },
      },
      'token response',
    );
    logger.info({ tokens: [{ accessToken: c.accessToken, refreshToken: c.xeroRefresh }] }, 'token store');
    logger.info(
      { form: { client_secret: c.zohoSecret, refresh_token: c.zohoRefresh, grant_type: 'refresh_token' } },
      'token request',
    );
    expect(leaks(text())).toEqual([]);
    expect(text()).toContain('"expires_in":3600');
    expect(text()).toContain('"grant_type":"refresh_token"');
  });

  it('holds for a real got error carrying the request options, logged as err, as error, and nested', async () => {
    const port = await freePort();
    const err = await got(`http://127.0.0.1:${port}/api/x`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.bearer}`, 'x-service-signature': c.signature },
      json: { refreshToken: c.zohoRefresh },
      retry: { limit: 0 },
      timeout: { request: 2000 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(JSON.stringify(err)).toContain(c.bearer); // a raw got error would leak
    const { logger, text } = capture();
    logger.error({ err }, 'as err');
    logger.error({ error: err }, 'as error');
    logger.error({ job: { lastError: err }, causes: [err] }, 'nested');
    logger.error(err as Error, 'as the object');
    expect(leaks(text())).toEqual([]);
    expect(text()).toContain('ECONNREFUSED');
  });

  describe('in a running worker that syncs, fails and recovers', () => {
    let stack: Harness;
    beforeAll(async () => {
      stack = await startHarness(
        opsService('canary', {
          service: { logLevel: 'trace' },
          // Billing answers 503 from the start: upsert attempts fail (and are logged) until the test brings it
          // back. Down until then, not for a count of requests: how many requests a count lasts depends on
          // how many upserts run at once, and once billing is marked down only the outage probe (one request
          // every 5 s) would use up the rest.
          billingFaults: { errorRate: 1, errorStatus: 503 },
          secrets: {
            billingApiKey: c.billingApiKey,
            billingAttachmentKey: c.attachmentKey,
            zohoClientSecret: c.zohoSecret,
            zohoRefreshToken: c.zohoRefresh,
            adminToken: c.adminToken,
          },
        }),
      );
    }, 60_000);
    afterAll(async () => {
      await stack?.close();
    });

    it('logs a full pull, failed billing attempts and the queue UI without any secret, in the log or in /metrics', async () => {
      await stack.waitForPull('invoices', 40_000);
      // A failed write is logged by its job, or by its batch as the record leaves it (sync.upsertBatchSize).
      const failed = /"msg":"(job attempt failed|record failed in its batch; it is retried as a job of its own)"/;
      await until('a logged failed attempt', () => stack.lines.some((l) => failed.test(l)), 30_000);
      stack.billing.faults.set({});
      await until(
        'the upserts to recover from the 503s',
        async () =>
          (await stack.metrics()).match(
            new RegExp(`erpsync_records_upserted_total\\{connection="${CONNECTION}",entity="invoices"\\} [1-9]`),
          ),
        30_000,
      );
      await fetch(`${stack.url}/admin/queues?token=${c.adminToken}`, { redirect: 'manual' });
      await fetch(`${stack.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${c.adminToken}` } });
      const text = stack.lines.join('');
      for (const msg of ['worker started', 'zoho-books access token refreshed', 'pull finished'])
        expect(text).toContain(`"msg":"${msg}"`);
      expect(text).toMatch(failed);
      expect(leaks(text)).toEqual([]);
      expect(leaks(await stack.metrics())).toEqual([]);
    }, 90_000);
  });
});
