import type { Logger } from 'pino';
import type { VendorClient } from '../http/vendor-client.js';
import type { EntityName } from './entities.js';
import type { AgentInboxReader } from './agent-inbox-reader.js';

/** What a stream read needs: the connection's HTTP client and where it is. */
export interface ReadContext<Settings = any> {
  connectionId: string;
  http: VendorClient;
  logger: Logger;
  signal?: AbortSignal;
  /** The read's upper bound: now − settle delay (records newer than this are left for the next run). */
  until: Date;
  /** The connection's settings, parsed once by the connector's schema when the config was loaded. */
  settings: Settings;
  /**
   * Backfill window of document dates (YYYY-MM-DD, inclusive). Streams filter by the vendor's document
   * date where it has one (Zoho date_start/date_end, QBO TxnDate, Xero Date), so a 30-day window reads
   * 30 days, not all history. Streams without a document date (customers) read everything once.
   */
  window?: { from: string; to: string };
  /**
   * The source version (UTC ISO) the pipeline already holds for each id — written to billing, or handed
   * to the upsert queue and on its way — or undefined (unknown, or a repair asked to read it again). A
   * stream whose per-record calls are costly (a detail GET per listed row) skips rows whose listed
   * modification time is not newer: they have not changed since.
   */
  knownVersions?(entity: EntityName, ids: readonly string[]): Promise<Array<string | undefined>>;
  /** Where the connection's lookups are shared by every process (lookups-cache.ts); absent: this process only. */
  lookupsStore?: LookupsStore;
  /** What an agent beside the source pushed (a connector in agent mode reads this instead of the source). */
  agentInbox?: AgentInboxReader;
}

/**
 * Where lookups outlive a process: every process of a deployment (a worker, a one-shot command) reads
 * what one of them read, until it expires (src/pipeline/shared-lookups.ts, in Redis). Plain JSON values.
 */
export interface LookupsStore {
  get(key: string): Promise<{ value: unknown; ttlMs: number } | undefined>;
  put(key: string, value: unknown, ttlMs: number): Promise<void>;
}
