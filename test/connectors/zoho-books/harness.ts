import type { Redis } from 'ioredis';
import { pino } from 'pino';
import type { ReadContext, SourceRecord, Stream, StreamState } from '../../../src/connector/types.js';
import { createZohoClient, type ZohoClientOptions, type ZohoSettingsInput } from '../../../connectors/zoho-books/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator, type ZohoEmulatorOptions } from '../../../sandbox/zoho-books/index.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import type { VendorClient } from '../../../src/http/vendor-client.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

export const silent = pino({ level: 'silent' });

/** Fast in-process retries for tests; rate-limit waits still follow X-Rate-Limit-Reset. */
export const FAST_RETRY = { minTimeoutMs: 5, maxTimeoutMs: 20 };

/** The emulator, Redis-backed token stores and a way to build clients and read contexts. */
export async function startHarness(options: ZohoEmulatorOptions = {}) {
  // Per-minute limit off unless a test asks for it: a real minute of waiting would outlast the test.
  const emulator: ZohoEmulator = await startZohoEmulator({ records: 30, customers: 12, creditNotes: 8, ratePerMinute: 0, ...options });
  const prefix = testPrefix('zoho');
  const redises: Redis[] = [];
  const tokens = () => {
    const r = connect();
    redises.push(r);
    return new TokenStore(r, { prefix });
  };
  const settings = (over: Partial<ZohoSettingsInput> = {}): ZohoSettingsInput => ({
    organizationId: emulator.organizationId,
    clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
    clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
    refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
    dataCenter: 'in',
    baseUrl: emulator.url,
    lookupsCacheSeconds: 0,
    ...over,
  });
  const client = (over: Partial<ZohoClientOptions> = {}, settingsOver: Partial<ZohoSettingsInput> = {}): VendorClient =>
    createZohoClient({ connectionId: 'zoho-test', settings: settings(settingsOver), tokens: tokens(), logger: silent, retry: FAST_RETRY, ...over });
  const context = (http: VendorClient, over: Partial<ReadContext> = {}, settingsOver: Partial<ZohoSettingsInput> = {}): ReadContext => ({
    connectionId: 'zoho-test',
    http,
    logger: silent,
    until: new Date(),
    settings: settings(settingsOver) as Record<string, unknown>,
    ...over,
  });
  return {
    emulator,
    client,
    context,
    settings,
    async close() {
      await emulator.close();
      if (redises[0]) await dropPrefix(redises[0], prefix);
      await Promise.all(redises.map((r) => r.quit()));
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startHarness>>;

/**
 * An onResponse hook that makes each emulated rate-limit minute last ~3 s of real time: whenever a new
 * window has opened (its count restarted), the emulator clock jumps 57 s ahead, so the 429s that follow
 * carry X-Rate-Limit-Reset of a few seconds and the client's honest wait stays short.
 */
export function shortMinutes(emulator: ZohoEmulator): () => void {
  let last = 0;
  return () => {
    const used = emulator.limiter.current.usedThisMinute;
    if (used > 0 && (last === 0 || used < last)) emulator.clock.set({ advanceSeconds: 57 });
    last = emulator.limiter.current.usedThisMinute;
  };
}

/** Reads a stream to the end: every record, in order, and the number of pages. */
export async function readAll<S extends StreamState>(
  stream: Stream<Record<string, unknown>, S>,
  ctx: ReadContext,
  state: S,
  onPage?: (page: number) => void | Promise<void>,
): Promise<{ records: SourceRecord<Record<string, unknown>>[]; pages: number }> {
  const records: SourceRecord<Record<string, unknown>>[] = [];
  let pages = 0;
  for await (const page of stream.read(ctx, state)) {
    pages++;
    records.push(...page.records);
    await onPage?.(pages);
  }
  return { records, pages };
}
