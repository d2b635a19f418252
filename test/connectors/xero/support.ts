import pino from 'pino';
import type { Redis } from 'ioredis';
import type {
  CreateClientOptions,
  MapContext,
  ReadContext,
  SourceRecord,
  Stream,
  StreamState,
} from '../../../src/connector/types.js';
import { connector } from '../../../connectors/xero/connector.js';
import { startXeroEmulator, type XeroEmulator, type XeroEmulatorOptions } from '../../../sandbox/xero/index.js';
import { Settings } from '../../../connectors/xero/settings.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import type { VendorClient } from '../../../src/http/vendor-client.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { Quotas } from '../../../src/pipeline/quotas.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

/**
 * A Xero emulator plus what a worker wires around a connector: a real TokenStore and real Quotas on real
 * Redis (unique key prefix), clients per organisation sharing one token group (one Xero login reaches
 * both organisations with ONE single-use refresh token).
 */
export interface XeroClients {
  emu: XeroEmulator;
  redis: Redis;
  prefix: string;
  tokens: TokenStore;
  quotas: Quotas;
  india: string;
  australia: string;
  settings(tenantId: string, extra?: Partial<Settings>): Settings;
  client(
    tenantId: string,
    extra?: Omit<Partial<CreateClientOptions<Settings>>, 'settings'> & { settings?: Partial<Settings> },
  ): VendorClient;
  readCtx(http: VendorClient, settings: Settings, overrides?: Partial<ReadContext>): ReadContext;
  /** Emulator reset (data, tokens, limits) plus the token store and quotas it would contradict. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export const silent = pino({ level: 'silent' });

export async function startXeroClients(options: XeroEmulatorOptions = {}): Promise<XeroClients> {
  const emu = await startXeroEmulator(options);
  const redis = connect();
  const prefix = testPrefix('xero');
  const tokens = new TokenStore(redis, { prefix });
  const quotas = new Quotas(redis, stateKeys(prefix));
  const [india, australia] = emu.tenantIds as [string, string];
  const settings = (tenantId: string, extra: Partial<Settings> = {}): Settings =>
    Settings.parse({
      clientId: 'xero-sandbox-client-id',
      clientSecret: 'xero-sandbox-client-secret',
      refreshToken: 'xero-sandbox-refresh-token-0',
      tenantId,
      // Each test reads the emulator's organisation as it is now (tests change it): no lookups cache.
      lookupsCacheSeconds: 0,
      baseUrl: emu.apiBase,
      tokenUrl: emu.tokenUrl,
      tokenGroup: 'xero-login',
      ...extra,
    });
  return {
    emu,
    redis,
    prefix,
    tokens,
    quotas,
    india,
    australia,
    settings,
    client: (tenantId, extra = {}) => {
      const { settings: s, ...rest } = extra;
      return connector.createClient({
        connectionId: `xero-${tenantId.slice(0, 8)}`,
        settings: settings(tenantId, s),
        tokens,
        logger: silent,
        ...rest,
      });
    },
    readCtx: (http, s, overrides = {}) => ({
      connectionId: `xero-${s.tenantId.slice(0, 8)}`,
      http,
      logger: silent,
      until: new Date(emu.clock.now() + 3_600_000),
      settings: s as unknown as Record<string, unknown>,
      ...overrides,
    }),
    reset: async () => {
      emu.reset();
      await dropPrefix(redis, prefix);
    },
    close: async () => {
      await emu.close();
      await dropPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}

/** Every page of a stream read, collected; the state after each page. */
export async function readAll<Raw, S extends StreamState>(
  stream: Stream<Raw, S>,
  ctx: ReadContext,
  state: S,
): Promise<{ records: SourceRecord<Raw>[]; states: S[] }> {
  const records: SourceRecord<Raw>[] = [];
  const states: S[] = [];
  for await (const page of stream.read(ctx, state)) {
    records.push(...page.records);
    states.push(page.state);
  }
  return { records, states };
}

export function mapCtx(connectionId: string, lookups: Record<string, unknown>, baseCurrency = 'INR'): MapContext {
  return { connectionId, originSource: 'EXTERNAL_SYSTEM_C', baseCurrency, lookups };
}

/** Latest version per id. */
export function latest<Raw>(records: readonly SourceRecord<Raw>[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of records) if ((m.get(r.id) ?? '') < r.version) m.set(r.id, r.version);
  return m;
}
