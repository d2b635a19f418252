import pino from 'pino';
import { connector } from '../../../connectors/quickbooks/connector.js';
import type { Settings, SettingsInput } from '../../../connectors/quickbooks/settings.js';
import {
  QBO_SANDBOX_DEFAULTS,
  type QuickBooksEmulatorOptions,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from '../../../sandbox/quickbooks/index.js';
import type {
  CreateClientOptions,
  ReadContext,
  SourceRecord,
  Stream,
  StreamPage,
  StreamState,
} from '../../../src/connector/types.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import type { VendorClient } from '../../../src/http/vendor-client.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

export const T0 = '2025-03-01T00:00:00Z';
export const silent = pino({ level: 'silent' });

/**
 * A running sandbox plus the real connector client on a real TokenStore (Redis), for stream and client
 * tests over loopback.
 */
export interface ClientOverrides {
  tokens?: TokenStore;
  settings?: Partial<SettingsInput>;
  options?: Partial<CreateClientOptions<Settings>>;
}

export interface QuickBooksClients {
  emu: RunningQuickBooksEmulator;
  settings: Settings;
  http: VendorClient;
  tokens: TokenStore;
  prefix: string;
  connectionId: string;
  ctx(extra?: Partial<ReadContext>): ReadContext;
  client(options?: ClientOverrides): VendorClient;
  close(): Promise<void>;
}

export async function startQuickBooksClients(
  emuOptions: QuickBooksEmulatorOptions = {},
  settingsInput: Partial<SettingsInput> = {},
): Promise<QuickBooksClients> {
  const emu = await startQuickBooksEmulator({ now: T0, frozen: true, ...emuOptions });
  const redis = connect();
  const prefix = testPrefix('qbo');
  const tokens = new TokenStore(redis, { prefix });
  const connectionId = 'qbo-test';
  const settingsFor = (over: Partial<SettingsInput> = {}) =>
    connector.settings.parse({
      ...QBO_SANDBOX_DEFAULTS,
      realmId: emu.realmId,
      baseUrl: emu.url,
      tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      ...settingsInput,
      ...over,
    });
  const settings = settingsFor();
  const client = (o: ClientOverrides = {}) =>
    connector.createClient({
      connectionId,
      settings: settingsFor(o.settings),
      tokens: o.tokens ?? tokens,
      ...o.options,
    });
  const http = client();
  return {
    emu,
    settings,
    http,
    tokens,
    prefix,
    connectionId,
    client,
    // until = the emulator's now, as the pipeline's now − settle delay would be: later edits are the next run's.
    ctx: (more = {}) => ({
      connectionId,
      http,
      logger: silent,
      until: new Date(emu.clock.now()),
      settings: settings as unknown as Record<string, unknown>,
      ...more,
    }),
    close: async () => {
      await dropPrefix(redis, prefix);
      redis.disconnect();
      await emu.close();
    },
  };
}

export interface ReadResult<S extends StreamState> {
  records: SourceRecord<Record<string, unknown>>[];
  pages: Array<StreamPage<Record<string, unknown>, S>>;
}

/** Reads a stream to the end; `onPage` runs between pages (to edit records mid-read). */
export async function readAll<S extends StreamState>(
  stream: Stream<Record<string, unknown>, S>,
  ctx: ReadContext,
  state: S,
  onPage?: (page: StreamPage<Record<string, unknown>, S>, index: number) => void | Promise<void>,
): Promise<ReadResult<S>> {
  const out: ReadResult<S> = { records: [], pages: [] };
  for await (const page of stream.read(ctx, state)) {
    out.pages.push(page);
    out.records.push(...page.records);
    await onPage?.(page, out.pages.length - 1);
  }
  return out;
}

/** Latest version per id among live (not deleted) records read. */
export function latestById(records: ReadonlyArray<SourceRecord<unknown>>): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of records) if (!r.deleted && (m.get(r.id) ?? '') < r.version) m.set(r.id, r.version);
  return m;
}
