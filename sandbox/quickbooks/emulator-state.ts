import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { FaultInjector } from '../kit/faults.js';
import type { Journal } from '../kit/journal.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { renderTimestamp } from './qbo-time.js';
import type { QboStore } from './qbo-store.js';
import type { RequestLimiter } from './request-limiter.js';
import type { QboTokenRegistry } from './token-registry.js';

/** Counters the emulator keeps (GET /__admin/stats, and `stats()` on the running emulator). */
export interface EmulatorStats {
  requests: number;
  byEndpoint: Record<string, number>;
  queries: number;
  cdcCalls: number;
  throttled: { minute: number; inFlight: number };
  maxInFlightSeen: number;
  tokens: { refreshes: number; attempts: number; rejected: number };
  minorVersions: Record<string, number>;
}

/** Everything the routes share. */
export interface EmulatorState {
  realmId: string;
  offsetMinutes: number;
  latencyMs: number;
  clock: EmulatorClock;
  store: QboStore;
  tokens: QboTokenRegistry;
  /** The authorization-code grant: consent page, codes, exchange checks. */
  codes: AuthorizationCodes;
  limiter: RequestLimiter;
  faults: FaultInjector;
  journal: Journal;
  counters: {
    requests: number;
    byEndpoint: Record<string, number>;
    queries: number;
    cdcCalls: number;
    minorVersions: Record<string, number>;
  };
}

/** The response `time`, in the company's offset with milliseconds. */
export function responseTime(state: EmulatorState): string {
  return renderTimestamp(state.clock.now(), state.offsetMinutes, true);
}

export function statsOf(state: EmulatorState): EmulatorStats {
  const c = state.counters;
  return {
    requests: c.requests,
    byEndpoint: { ...c.byEndpoint },
    queries: c.queries,
    cdcCalls: c.cdcCalls,
    throttled: { ...state.limiter.throttled },
    maxInFlightSeen: state.limiter.maxInFlightSeen,
    tokens: {
      refreshes: state.tokens.refreshCount,
      attempts: state.tokens.refreshAttempts,
      rejected: state.tokens.rejected,
    },
    minorVersions: { ...c.minorVersions },
  };
}
