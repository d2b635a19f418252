import type { Connector } from '../connector/types.js';

/**
 * The TokenStore key a connection's tokens live under: the connection id, or the key its connector
 * names when several connections share one authorisation (Xero's `tokenGroup`).
 */
export function tokenKeyOf(connection: {
  config: { id: string; settings: unknown };
  connector: Pick<Connector<any>, 'tokenKeyFor'>;
}): string {
  return connection.connector.tokenKeyFor?.(connection.config.id, connection.config.settings) ?? connection.config.id;
}
