import type { Service } from '../../../app/service.js';
import { type BillingEmulator, DEFAULT_KEYS, startBillingEmulator } from '../../../sandbox/billing/billing-emulator.js';
import { startTallyEmulator, type TallyEmulator } from '../../../sandbox/tally/index.js';
import { type AppConfig, parseConfig } from '../../../src/config.js';
import { validateSettings } from '../../../connectors/registry.js';
import type { Cleanups } from '../../support/cleanups.js';
import { startTestService } from '../../support/harness-runtime.js';
import { connect, dropPrefix, TEST_REDIS_URL } from '../../support/redis.js';

export const AGENT_CONNECTION = 'tally-agent';
export const COMPANY = DEFAULT_KEYS[0]!.companyId;
export const ORIGIN = 'EXTERNAL_SYSTEM_A';

/** What a Tally agent test runs against: billing and TallyPrime emulated, the real worker service. */
export interface AgentRig {
  billing: BillingEmulator;
  tally: TallyEmulator;
  service: Service;
  config: AppConfig;
  /** The config as its YAML file would hold it (for the CLI's --config). */
  raw: Record<string, unknown>;
  /** The worker's HTTP server, where the agent pushes (its http.publicUrl). */
  workerUrl: string;
}

/**
 * The billing and Tally emulators on loopback and the real service (every role, its HTTP server on a free
 * port) with one Tally connection in agent mode, on its own Redis prefix; all stopped by `cleanups`.
 */
export async function startAgentRig(
  cleanups: Cleanups,
  prefix: string,
  size: { invoices: number; creditNotes: number; customers: number },
): Promise<AgentRig> {
  const billing = await startBillingEmulator({ port: 0 });
  cleanups.add(() => billing.close());
  const tally = await startTallyEmulator(size);
  cleanups.add(() => tally.close());
  const raw = {
    billing: { url: billing.url, apiKey: DEFAULT_KEYS[0]!.key, baseCurrency: 'INR', timeoutMs: 10_000 },
    redis: { url: TEST_REDIS_URL, prefix },
    http: { host: '127.0.0.1', port: 0 },
    sync: { backoffMs: 100, lockDurationMs: 5000, stalledIntervalMs: 1000, graceSeconds: 5 },
    reconcile: { windowDays: 0 },
    connections: [
      {
        id: AGENT_CONNECTION,
        system: 'tally',
        originSource: ORIGIN,
        entities: ['customers', 'invoices', 'credit-notes'],
        schedule: { everySeconds: 3600 },
        lookbackSeconds: 5,
        settleDelaySeconds: 0,
        syncDrafts: true,
        settings: { mode: 'agent', company: tally.companyName },
      },
    ],
  };
  const config = parseConfig(raw, {}, validateSettings);
  cleanups.add(async () => {
    const redis = connect();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const { service } = await startTestService(cleanups, config, { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
  return { billing, tally, service, config, raw, workerUrl: service.httpUrl };
}
