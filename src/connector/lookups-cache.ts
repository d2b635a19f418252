import type { ReadContext } from './types.js';

interface CacheEntry<T> {
  expires: number;
  value: Promise<T>;
}
const cache = new Map<string, CacheEntry<unknown>>();

/**
 * A connection's lookups (organisation, tax rates, currencies), shared by every job of the process and
 * refreshed when they are older than `ttlSeconds` (a connector's `lookupsCacheSeconds`, default an hour)
 * or were never read. Vendors count these calls against the same quotas as the data: re-reading them
 * in every pull of every stream spends a budget such as Xero's 60 a minute on settings that rarely
 * change. A failed read is not cached. Keyed by what names the organisation and the API it was read from.
 */
export function cachedLookups<T>(
  ctx: Pick<ReadContext, 'connectionId' | 'http'>,
  what: string,
  ttlSeconds: number,
  load: () => Promise<T>,
): Promise<T> {
  const key = `${what}|${ctx.connectionId}|${ctx.http.options.prefixUrl}`;
  const now = Date.now();
  const hit = cache.get(key) as CacheEntry<T> | undefined;
  if (hit && hit.expires > now) return hit.value;
  const value = load();
  cache.set(key, { expires: now + ttlSeconds * 1000, value });
  value.catch(() => cache.delete(key));
  return value;
}

/** Forgets every cached lookup (tests, or after an operator changed tax settings in the ERP). */
export function clearLookupsCache(): void {
  cache.clear();
}
