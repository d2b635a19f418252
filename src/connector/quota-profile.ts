import type { EntityName } from './entities.js';
import type { ReadContext } from './read-context.js';

/**
 * What one connector's reads cost in vendor calls, as its vendor bills them: the projection of a schedule
 * (src/pipeline/quota-projection.ts) and the first sync's estimate are computed from it. Each connector
 * declares its own (`connectors/<vendor>/quota-profile.ts`), with the vendor's doc URL for each figure.
 */
export interface QuotaProfile<Settings = unknown> {
  /** Calls one incremental run of the stream makes when nothing changed (its list calls, a delete feed). */
  listCallsPerRun(entity: EntityName): number;
  /**
   * Calls of one refresh of the lookups (organisation, tax settings), from the lookups themselves when
   * they were read (Zoho: one call per tax group), else the profile's assumption.
   */
  lookupCalls(lookups?: unknown): number;
  /** How long the lookups are cached per process, seconds (each process refreshes its own copy). */
  lookupsCacheSeconds(settings: Settings): number;
  /** Calls a first sync of `records` records of the stream makes: its list pages, and detail calls where the vendor needs them. */
  firstSyncCalls(entity: EntityName, records: number, settings: Settings): number;
  /** How many records the source holds now, with the calls the count cost (a count query, or probes of pages). */
  countRecords(ctx: ReadContext<Settings>, entity: EntityName): Promise<{ records: number; calls: number }>;
  /**
   * A budget shared by every connection of the same app (QuickBooks: read calls a calendar month per
   * client id); `app` is a non-secret key naming the app (a name from the config, or a short hash).
   */
  appMonthlyBudget?(settings: Settings): { app: string; budget: number } | undefined;
}
