import type { Logger } from 'pino';
import type { z } from 'zod';
import type { OriginSource } from '../billing/schemas/index.js';
import type { BillingBody } from './billing-body.js';
import type { Lifecycle } from './lifecycle.js';
import type { EntityName, SystemName } from './entities.js';
import type { MapResult } from '../mapping/index.js';
import type { ReadContext } from './read-context.js';
import type { FieldRule } from '../mapping/place-fields.js';
import type { VendorClient } from '../http/vendor-client.js';
import type { DocumentLinker } from '../documents/document-links.js';

/**
 * The contracts every connector implements (connectors/<vendor>/connector.ts). A connector is a static
 * definition; a stream reads one entity incrementally and yields pages with the state to resume from.
 */

export { ENTITY_NAMES, type EntityName, SYSTEM_NAMES, type SystemName } from './entities.js';
export type { BillingBody } from './billing-body.js';
export type { ReadContext } from './read-context.js';
export { LIFECYCLES, type Lifecycle } from './lifecycle.js';

/** One record as read from the source, before mapping. */
export interface SourceRecord<Raw = unknown> {
  /** The ERP's own id (string, even when the vendor sends numbers). */
  id: string;
  /** Source version: the record's last-modified instant as UTC ISO-8601 (ms precision). */
  version: string;
  /** The vendor's status as it says it (e.g. "void", "VOIDED", "Deleted"); kept, never turned into a delete. */
  status?: string;
  /** True when the source says the record was deleted (QBO CDC stub, Xero DELETED) — never for voids. */
  deleted?: boolean;
  /**
   * Why the record is not one billing takes at all (a contact that is only a supplier): the pipeline
   * counts it as skipped and neither maps nor quarantines it. Not for records billing should have but
   * that cannot be mapped: those are the mapper's quarantine reasons.
   */
  notForBilling?: string;
  /**
   * True when the ERP holds the document as a draft (not issued: not a receivable yet). The pipeline
   * skips it unless the connection has `syncDrafts: true`; once issued, its modification time changes and
   * the next read takes it.
   */
  draft?: boolean;
  /**
   * Where the document stands (src/connector/lifecycle.ts): draft, issued or void, the same words for
   * every vendor (`draft` is true exactly when this is 'draft'). Every stream sets it on each record it
   * does not mark `deleted`; reconciliation recognises a void by it, never by `status`.
   */
  lifecycle?: Lifecycle;
  raw: Raw;
}

export interface StreamPage<Raw, State> {
  records: SourceRecord<Raw>[];
  /** State to resume from once this page's records are durably handled. */
  state: State;
  /** Rows listed but not fetched because the pipeline already holds their version (ReadContext.knownVersions). */
  knownSkipped?: number;
  /** Records the whole read holds, where the vendor's list answer says (Xero's `pagination.itemCount`). */
  announcedTotal?: number;
}

/** Every stream state carries `cursor`: the lower bound (UTC ISO) of the next read, null = beginning. */
export type StreamState = { cursor: string | null } & Record<string, string | number | boolean | null>;

/** What a mapper needs to turn a source record into a billing body. */
export interface MapContext<Lookups = Record<string, unknown>> {
  connectionId: string;
  originSource: OriginSource;
  /** The billing company's base currency (exchangeRate is relative to it). */
  baseCurrency: string;
  /** Source-side lookups (tax settings, organisation, currencies) fetched once per read. */
  lookups: Lookups;
  /**
   * The connection's `fields` mapping: where this company's custom fields, reporting tags or tracking
   * categories go in billing (src/mapping/place-fields.ts). Absent or empty: each goes to its default place.
   */
  fields?: readonly FieldRule[];
}

export interface Stream<Raw = unknown, State extends StreamState = StreamState, Settings = any, Lookups = any> {
  name: EntityName;
  /** Field of the raw record that is its primary key. */
  primaryKey: string;
  /** Field of the raw record the incremental cursor reads. */
  cursorField: string;
  /** True only when reads are ordered by the cursor: then state may be saved after each page. */
  isSorted: boolean;
  /**
   * True when a read that starts over costs little more than its list pages: it skips rows the pipeline
   * already holds (`ReadContext.knownVersions`). The pipeline may then put a part-read back in the queue
   * (for a vendor quota wait) although its checkpoint is only saved at the end.
   */
  resumable?: boolean;
  /** zod schema of flat primitives; dates as ISO strings. */
  state: z.ZodType<State>;
  /** State for a read from `from` (ISO instant); undefined = from the beginning. */
  initialState(from?: string): State;
  /** True when this stream honours ReadContext.window; false = a window read reads everything. */
  supportsWindow: boolean;
  read(ctx: ReadContext<Settings>, state: State): AsyncIterable<StreamPage<Raw, State>>;
  /** Lookups the mapper needs, fetched once per read (e.g. Zoho tax settings). */
  lookups?(ctx: ReadContext<Settings>): Promise<Lookups>;
  map(record: SourceRecord<Raw>, ctx: MapContext<Lookups>): MapResult<BillingBody>;
  /**
   * The link to the record's document that billing attaches to it, when there is one: the vendor's own
   * shareable link (Zoho's `invoice_url`), or one of the worker's signed links (`links`, given while
   * the worker serves them: src/documents/document-links.ts).
   */
  documentUrl?(record: SourceRecord<Raw>, links: DocumentLinker | undefined): string | undefined;
  /**
   * These records read again from the source by id (a repair), with the vendor's by-id or by-ids read:
   * as many calls as ids, or as pages of ids where the vendor takes a list. Pages of found records; an id
   * the source no longer has is absent from every page (the caller reports it). Records come as `read`
   * would give them (version, status, deleted, draft), ready for `map`, whatever the settle delay.
   */
  readByIds?(ctx: ReadContext<Settings>, ids: readonly string[]): AsyncIterable<SourceRecord<Raw>[]>;
  /** Every id that exists in the source now (for delete detection by id diff), when the vendor has no delete feed. */
  listIds?(ctx: ReadContext<Settings>): AsyncIterable<string[]>;
}

export interface RateBudget {
  perMinute: number;
  perDay?: number;
  concurrency: number;
}

export interface Connector<Settings = unknown> {
  id: SystemName;
  displayName: string;
  /** zod schema of this connector's settings and credentials in the YAML config. */
  settings: z.ZodType<Settings>;
  streams: Record<EntityName, Stream<any, any, Settings>>;
  rateBudget: RateBudget;
  /** The budget of one connection when it depends on its settings (e.g. Zoho's plan-based daily cap). */
  rateBudgetFor?(settings: Settings): RateBudget;
  /** What its reads cost in vendor calls: the schedule's projection and a first sync's estimate (quota-profile.ts). */
  quotaProfile?: import('./quota-profile.js').QuotaProfile<Settings>;
  /** Builds the per-connection HTTP client (auth, error table, rate-limit headers). */
  createClient(options: CreateClientOptions<Settings>): VendorClient;
  /**
   * The TokenStore key of a connection when several connections share one authorisation (Xero's
   * `tokenGroup`); without it, the connection id. Token status and reset go by it.
   */
  tokenKeyFor?(connectionId: string, settings: Settings): string;
  /** The vendor's OAuth authorization-code flow, for `erp-sync connect`. */
  authorization?: import('../auth/authorization-flow.js').AuthorizationFlow<any>;
  /** The vendor's webhooks: how a delivery is verified and what it announces (src/webhooks/). */
  webhooks?: import('../webhooks/webhook-event.js').ConnectorWebhooks<Settings>;
  /**
   * The organisation's custom fields, reporting tags or tracking categories, for `erp-sync check` to hold
   * the connection's `fields` rules against (src/connector/field-catalog.ts).
   */
  fieldCatalog?: import('./field-catalog.js').ReadFieldCatalog<ReadContext<Settings>>;
  /**
   * True when the vendor's deletes leave no trace a read or a feed could see (TallyPrime): the worker lists
   * every id of each stream with `listIds` on `schedule.deletesEverySeconds` (jobs/pull/sweep-deletes.ts).
   */
  sweepsDeletes?: boolean;
  /**
   * What `erp-sync check` asks of this vendor besides a token and one page of each stream (TallyPrime: the
   * company loaded, its voucher types, its tax ledgers). A request that fails throws, reported by its error class.
   */
  checks?(ctx: ReadContext<Settings>): Promise<VendorCheck[]>;
  /** The vendor serves its documents as PDF: the worker links billing to them (src/documents/). */
  documents?: ConnectorDocuments;
}

/** One vendor-specific check's outcome (operations/check-connection.ts prints it like every check). */
export interface VendorCheck {
  check: string;
  status: 'ok' | 'failed' | 'skipped';
  detail: string;
  fix?: string;
}

/** How a connector reads one document's PDF at its vendor. */
export interface ConnectorDocuments {
  /** The PDF of an invoice or credit note by the vendor's id: one vendor call through the connection's client. */
  pdf(
    http: VendorClient,
    entity: import('../documents/document-link-token.js').DocumentEntity,
    id: string,
    signal?: AbortSignal,
  ): Promise<import('../documents/document-cache.js').DocumentFile>;
}

export interface CreateClientOptions<Settings> {
  connectionId: string;
  settings: Settings;
  tokens: import('../auth/token-store.js').TokenStore;
  logger?: Logger;
  /** Called before each request: waits for a quota slot (per-minute, per-day, concurrency). */
  acquire?: import('../http/vendor-client.js').AcquireSlot;
  onResponse?: import('../http/vendor-client.js').ResponseObserver;
  /** Parks the connection until an instant (vendor day limit, or remaining quota 0 until a reset). */
  park?: (untilMs: number) => Promise<void>;
  /** Remaining vendor quota read from response headers. */
  onQuota?: (window: 'minute' | 'day', remaining: number) => void;
  /** The vendor refused the connection's refresh token (re-authorisation needed): the pipeline marks and parks it. */
  onCredentialsRefused?: import('../http/vendor-client.js').VendorClientOptions['onCredentialsRefused'];
  /** The config's refresh token replaced the stored one (a re-consent): the pipeline lifts a refusal's park. */
  onCredentialsReplaced?: import('../http/vendor-client.js').VendorClientOptions['onCredentialsReplaced'];
}
