import type { AppConfig, ConnectionConfig } from '../config.js';

/**
 * The time zone of the billing company a connection writes to: its own `connections[].billing.timeZone`,
 * else `billing.timeZone`, else UTC (never the host's zone). What the console shows its instants in.
 */
export function companyTimeZone(config: Pick<AppConfig, 'billing'>, c: Pick<ConnectionConfig, 'billing'>): string {
  return c.billing?.timeZone ?? config.billing.timeZone ?? 'UTC';
}
