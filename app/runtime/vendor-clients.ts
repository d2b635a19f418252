import type { Logger } from 'pino';
import { CREDENTIALS_RECHECK_MS } from '../../src/auth/credentials-recheck.js';
import type { TokenStore } from '../../src/auth/token-store.js';
import type { ConnectionConfig } from '../../src/config.js';
import type { Connector } from '../../src/connector/types.js';
import type { VendorClient } from '../../src/http/vendor-client.js';
import { type Metrics, statusClass } from '../../src/observability/metrics.js';
import type { Quotas } from '../../src/pipeline/quotas.js';

/** What a connection's vendor client is built with, besides its config. */
export interface VendorClientParts {
  tokens: TokenStore;
  quotas: Quotas;
  logger: Logger;
  metrics: Metrics;
}

/**
 * A connection's vendor client: its quota and tokens live in Redis (so N processes behave like one),
 * its responses are counted, and a refused grant parks the connection.
 */
export function createVendorClient(
  c: ConnectionConfig,
  connector: Connector<any>,
  { tokens, quotas, logger, metrics }: VendorClientParts,
): VendorClient {
  const month = connector.quotaProfile?.appMonthlyBudget?.(c.settings);
  const budget = {
    ...(connector.rateBudgetFor?.(c.settings) ?? connector.rateBudget),
    ...(c.rateBudget ?? {}),
    ...(month ? { month } : {}),
  };
  return connector.createClient({
    connectionId: c.id,
    settings: { ...c.settings, ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) },
    tokens,
    logger: logger.child({ connection: c.id }),
    acquire: (signal) => quotas.acquire(c.id, budget, { signal }),
    onResponse: ({ endpoint, status, durationMs }) => {
      metrics.vendorRequests.inc({ connection: c.id, endpoint, status_class: statusClass(status) });
      metrics.vendorRequestDuration.observe({ connection: c.id, endpoint }, durationMs / 1000);
      if (status === 429) metrics.rateLimited.inc({ target: c.id });
    },
    park: (untilMs) => quotas.park(c.id, untilMs),
    // A refused grant: the connection waits (parked, rechecked) instead of calling the token endpoint in a loop.
    onCredentialsRefused: async (err) => {
      metrics.connectionCredentialsOk.set({ connection: c.id }, 0);
      const until = Date.now() + CREDENTIALS_RECHECK_MS;
      await quotas.park(c.id, until);
      logger.error(
        { connection: c.id, err, recheckAt: new Date(until).toISOString() },
        "the vendor refused the connection's refresh token: re-authorise it (docs/operations.md, ErpSyncCredentialsRefused); parked until the recheck",
      );
    },
    // A new refresh token in the config replaced a refused one: try it now rather than at the recheck.
    onCredentialsReplaced: async () => {
      await quotas.unpark(c.id);
      metrics.connectionCredentialsOk.set({ connection: c.id }, 1);
      logger.info(
        { connection: c.id },
        'a new refresh token from the config replaced the stored one (re-consent); park lifted',
      );
    },
    onQuota: (window, remaining) => {
      metrics.vendorQuotaRemaining.set({ connection: c.id, window }, remaining);
      // The vendor's count wins over ours where it says less is left (another app on the same organisation).
      quotas
        .observe(c.id, budget, window, remaining)
        .catch((err: unknown) => logger.warn({ err, connection: c.id }, 'could not record the vendor quota'));
    },
  });
}
