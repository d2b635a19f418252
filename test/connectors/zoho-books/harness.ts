import type { Redis } from 'ioredis';
import { pino } from 'pino';
import type { MapContext, ReadContext, SourceRecord, Stream } from '../../../src/connector/types.js';
import { createClient, type ClientOptions } from '../../../connectors/zoho-books/client.js';
import { Settings, type SettingsInput } from '../../../connectors/zoho-books/settings.js';
import type { State } from '../../../connectors/zoho-books/streams/state.js';
import {
  startZohoEmulator,
  ZOHO_SANDBOX_DEFAULTS,
  type ZohoEmulator,
  type ZohoEmulatorOptions,
} from '../../../sandbox/zoho-books/index.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import type { VendorClient } from '../../../src/http/vendor-client.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

export const silent = pino({ level: 'silent' });

/** Any of the three Zoho streams. */
export type ZohoStream = Stream<Record<string, unknown>, State, Settings, any>;

/** Fast in-process retries for tests; rate-limit waits still follow X-Rate-Limit-Reset. */
export const FAST_RETRY = { minTimeoutMs: 5, maxTimeoutMs: 20 };

/** The emulator, Redis-backed token stores and a way to build clients and read contexts. */
export async function startZohoClients(options: ZohoEmulatorOptions = {}) {
  // Per-minute limit off unless a test asks for it: a real minute of waiting would outlast the test.
  const emulator: ZohoEmulator = await startZohoEmulator({
    records: 30,
    customers: 12,
    creditNotes: 8,
    ratePerMinute: 0,
    ...options,
  });
  const prefix = testPrefix('zoho');
  const redises: Redis[] = [];
  const tokens = () => {
    const r = connect();
    redises.push(r);
    return new TokenStore(r, { prefix });
  };
  // Parsed as the config loader parses them: the client and the streams receive Settings, defaults filled.
  const settings = (over: Partial<SettingsInput> = {}): Settings =>
    Settings.parse({
      organizationId: emulator.organizationId,
      clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
      clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
      refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
      dataCenter: 'in',
      baseUrl: emulator.url,
      lookupsCacheSeconds: 0,
      ...over,
    });
  const client = (over: Partial<ClientOptions> = {}, settingsOver: Partial<SettingsInput> = {}): VendorClient =>
    createClient({
      connectionId: 'zoho-test',
      settings: settings(settingsOver),
      tokens: tokens(),
      logger: silent,
      retry: FAST_RETRY,
      ...over,
    });
  const context = (
    http: VendorClient,
    over: Partial<ReadContext<Settings>> = {},
    settingsOver: Partial<SettingsInput> = {},
  ): ReadContext<Settings> => ({
    connectionId: 'zoho-test',
    http,
    logger: silent,
    until: new Date(),
    settings: settings(settingsOver),
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
export type ZohoClients = Awaited<ReturnType<typeof startZohoClients>>;

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
export async function readAll(
  stream: ZohoStream,
  ctx: ReadContext<Settings>,
  state: State,
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

/** Maps records as the pipeline does: the stream's lookups fetched once (customers have none), then each record. */
export async function mapAll(stream: ZohoStream, h: ZohoClients, records: SourceRecord<Record<string, unknown>>[]) {
  const ctx = h.context(h.client());
  const mapCtx: MapContext = {
    connectionId: 'zoho-test',
    originSource: 'EXTERNAL_SYSTEM_A',
    baseCurrency: 'INR',
    lookups: stream.lookups ? await stream.lookups(ctx) : {},
  };
  return records.map((r) => ({ id: r.id, result: stream.map(r, mapCtx) }));
}
