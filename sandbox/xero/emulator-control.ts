import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { FaultInjector } from '../kit/faults.js';
import type { Journal } from '../kit/journal.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { IfModifiedSinceMode } from './list-query.js';
import type { RateLimits, XeroRateLimiter } from './rate-limiter.js';
import type { XeroTokenRegistry } from './token-registry.js';
import type { XeroDataStore } from './xero-data-store.js';

/** What the admin routes steer (implemented by xero-emulator.ts). */
export interface XeroEmulatorStats {
  requests: number;
  tokenCalls: number;
  tokens: { refreshes: number; invalidGrants: number; invalidClients: number };
  rateLimited: { minute: number; day: number; concurrent: number; appminute: number };
  limits: RateLimits & { latencyMs: number; ifModifiedSince: IfModifiedSinceMode };
  usage: ReturnType<XeroRateLimiter['snapshot']>;
  records: Record<string, { invoices: number; creditNotes: number; contacts: number }>;
}

export interface XeroEmulatorControl {
  store: XeroDataStore;
  clock: EmulatorClock;
  faults: FaultInjector;
  journal: Journal;
  tokens: XeroTokenRegistry;
  /** The authorization-code grant: consent page, codes, exchange checks. */
  codes: AuthorizationCodes;
  limiter: XeroRateLimiter;
  stats(): XeroEmulatorStats;
  configure(limits: Partial<RateLimits> & { latencyMs?: number; ifModifiedSince?: IfModifiedSinceMode }): void;
  reset(seed?: number | string): void;
}
