import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateSettings } from '../../../connectors/registry.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { type Service, startService } from '../../../app/service.js';
import { ALL_ROLES, type Role } from '../../../app/worker-service.js';
import { type AppConfig, parseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/observability/logger.js';
import { type BillingEmulator, startBillingEmulator } from '../../../sandbox/billing/billing-emulator.js';
import type { FaultConfigInput } from '../../../sandbox/kit/faults.js';
import { connect, dropPrefix, TEST_REDIS_URL } from '../../support/redis.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const COMPANY = 'ops';
export const CONNECTION = 'zoho-ops';

/**
 * A binary the ops tests need, or a failure that says how to get it. Never a skip: .ci/run installs
 * the Debian packages (prometheus → promtool and prometheus, chromium, docker-compose) first.
 */
export function requireBinary(name: string, debianPackage: string): string {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = r.stdout.trim();
  if (r.status !== 0 || !path) {
    throw new Error(
      `${name} is not on PATH: install the Debian package "${debianPackage}" (apt-get install -y ${debianPackage}); .ci/run does this before npm test`,
    );
  }
  return path;
}

/** Runs a command; returns its status and output (never throws for a non-zero exit). */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    output: `${r.stdout ?? ''}${r.stderr ?? ''}`,
    error: r.error,
  };
}

/** `run`, without blocking the event loop (for running several at once). */
export function runAsync(
  cmd: string,
  args: string[],
  opts: { cwd?: string } = {},
): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: opts.cwd ?? REPO_ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      done({ status: err ? (typeof code === 'number' ? code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

export { freePort } from '../../../src/http/free-port.js';

import { until } from '../../support/until.js';

export { until };

export interface Secrets {
  billingApiKey: string;
  billingAttachmentKey: string;
  zohoClientSecret: string;
  zohoRefreshToken: string;
  adminToken: string;
}

export interface StackOptions {
  name: string;
  secrets?: Partial<Secrets>;
  /** Zoho invoices generated. @defaultValue 20 */
  invoices?: number;
  /** Pull schedule of the connection. @defaultValue 5 */
  everySeconds?: number;
  /** Extra raw `connections[]` entries (e.g. one pointing nowhere). */
  extraConnections?: Array<Record<string, unknown>>;
  roles?: readonly Role[];
  logLevel?: string;
  /** Turns the queue UI on with secrets.adminToken. @defaultValue true */
  queueUi?: boolean;
  /** Billing emulator faults from the start (e.g. { errorNext: 12 }). */
  billingFaults?: FaultConfigInput;
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * The real service (startService: schedulers, workers, HTTP server with /metrics and /admin/queues) on
 * a unique Redis prefix, against the billing and Zoho Books emulators on loopback, with secrets passed
 * through ${VAR} interpolation as in production. Logs are captured as JSON lines.
 */
export async function startStack(options: StackOptions) {
  const suffix = randomBytes(4).toString('hex');
  const secrets: Secrets = {
    billingApiKey: `ops-billing-key-${suffix}`,
    billingAttachmentKey: `ops-attach-key-${suffix}`,
    zohoClientSecret: `ops-zoho-secret-${suffix}`,
    zohoRefreshToken: `1000.ops-zoho-refresh-${suffix}`,
    adminToken: `ops-admin-token-${suffix}`,
    ...options.secrets,
  };
  const prefix = `test-ops-${options.name}-${suffix}`;
  const lines: string[] = [];
  const redis = connect();
  let billing: BillingEmulator | undefined;
  let zoho: ZohoEmulator | undefined;
  let service: Service | undefined;
  const close = async () => {
    await service?.stop().catch(() => {});
    await zoho?.close().catch(() => {});
    await billing?.close().catch(() => {});
    await dropPrefix(redis, prefix);
    await redis.quit();
  };
  try {
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: secrets.billingApiKey, companyId: COMPANY }],
      attachmentKeys: [{ key: secrets.billingAttachmentKey, companyId: COMPANY }],
      faults: options.billingFaults,
    });
    zoho = await startZohoEmulator({
      port: 0,
      seed: 7,
      records: options.invoices ?? 20,
      customers: 5,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
      clientSecret: secrets.zohoClientSecret,
      refreshToken: secrets.zohoRefreshToken,
    });
    const raw = {
      billing: {
        url: billing.url,
        apiKey: '${OPS_BILLING_API_KEY}',
        attachmentKey: '${OPS_BILLING_ATTACHMENT_KEY}',
        baseCurrency: 'INR',
        rateLimit: { max: 5000, durationMs: 1000 },
        timeoutMs: 5000,
      },
      redis: { url: TEST_REDIS_URL, prefix },
      http: {
        host: '127.0.0.1',
        port: 0,
        adminToken: options.queueUi === false ? '${OPS_NO_TOKEN:-}' : '${OPS_ADMIN_TOKEN}',
      },
      sync: { backoffMs: 100, attempts: 3, graceSeconds: 5 },
      reconcile: { windowDays: 0 },
      connections: [
        {
          id: CONNECTION,
          system: 'zoho-books',
          originSource: 'EXTERNAL_SYSTEM_A',
          entities: ['customers', 'invoices'],
          schedule: { everySeconds: options.everySeconds ?? 5 },
          lookbackSeconds: 5,
          settleDelaySeconds: 0,
          rateBudget: { perMinute: 1_000_000, concurrency: 8 },
          settings: {
            organizationId: zoho.organizationId,
            clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
            clientSecret: '${OPS_ZOHO_CLIENT_SECRET}',
            refreshToken: '${OPS_ZOHO_REFRESH_TOKEN}',
            baseUrl: zoho.apiBase,
            accountsUrl: zoho.url,
            dailyCallLimit: 0,
          },
        },
        ...(options.extraConnections ?? []),
      ],
    };
    const env = {
      OPS_BILLING_API_KEY: secrets.billingApiKey,
      OPS_BILLING_ATTACHMENT_KEY: secrets.billingAttachmentKey,
      OPS_ZOHO_CLIENT_SECRET: secrets.zohoClientSecret,
      OPS_ZOHO_REFRESH_TOKEN: secrets.zohoRefreshToken,
      OPS_ADMIN_TOKEN: secrets.adminToken,
    };
    const config: AppConfig = parseConfig(raw, env, validateSettings, `${options.name} config`);
    const logger = createLogger({
      level: options.logLevel ?? 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(s) },
    });
    service = await startService(config, logger, { roles: options.roles ?? ALL_ROLES, httpPort: 0 });
    const s = service;
    const b = billing;
    const z = zoho;
    return {
      billing: b,
      zoho: z,
      config,
      secrets,
      prefix,
      service: s,
      url: s.httpUrl,
      /** Captured log lines (JSON, one per entry). */
      lines,
      async metrics(): Promise<string> {
        const r = await fetch(`${s.httpUrl}/metrics`);
        return r.text();
      },
      /** Resolves once an incremental pull of `entity` has completed (the worker's own gauge says so). */
      async waitForPull(entity = 'invoices', timeoutMs = 30_000) {
        await until(
          `a completed pull of ${entity}`,
          async () =>
            (await this.metrics()).includes(
              `erpsync_last_success_timestamp_seconds{connection="${CONNECTION}",entity="${entity}"}`,
            ),
          timeoutMs,
        );
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
