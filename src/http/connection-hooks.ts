import type { VendorClientOptions } from './vendor-client.js';

/** What the pipeline hands every connection's client: quota slots, observers, the park, logging. */
export type ConnectionHooks = Pick<
  VendorClientOptions,
  | 'acquire'
  | 'onResponse'
  | 'onQuota'
  | 'park'
  | 'onCredentialsRefused'
  | 'onCredentialsReplaced'
  | 'connectionId'
  | 'logger'
>;

/**
 * The pipeline's hooks out of a connector's client options, for a VendorClient. Only these keys are
 * taken, so settings and the token store never reach the HTTP layer; what is the vendor's own (base URL,
 * auth, error table, retry policy, headers, query, readQuota) stays written in the connector's client.
 */
export function connectionHooks(options: ConnectionHooks): ConnectionHooks {
  const { acquire, onResponse, onQuota, park, onCredentialsRefused, onCredentialsReplaced, connectionId, logger } =
    options;
  return { acquire, onResponse, onQuota, park, onCredentialsRefused, onCredentialsReplaced, connectionId, logger };
}
