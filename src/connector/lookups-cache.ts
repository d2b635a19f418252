import type { LookupsStore, ReadContext } from './read-context.js';

export type { LookupsStore } from './read-context.js';

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
  ctx: Pick<ReadContext, 'connectionId' | 'http' | 'lookupsStore'>,
  what: string,
  ttlSeconds: number,
  load: () => Promise<T>,
): Promise<T> {
  const key = `${what}|${ctx.connectionId}|${ctx.http.options.prefixUrl}`;
  const now = Date.now();
  const hit = cache.get(key) as CacheEntry<T> | undefined;
  if (hit && hit.expires > now) return hit.value;
  const entry = { expires: now + ttlSeconds * 1000 } as CacheEntry<T>;
  const store = ttlSeconds > 0 ? ctx.lookupsStore : undefined;
  entry.value = store ? throughStore(store, key, ttlSeconds, load, entry) : load();
  cache.set(key, entry);
  entry.value.catch(() => cache.delete(key));
  return entry.value;
}

/** The store's copy while it lasts (this process keeps it no longer); else read and put there. Store errors only cost the read. */
async function throughStore<T>(
  store: LookupsStore,
  key: string,
  ttlSeconds: number,
  load: () => Promise<T>,
  entry: Pick<CacheEntry<T>, 'expires'>,
): Promise<T> {
  const stored = await store.get(key).catch(() => undefined);
  if (stored) {
    // Kept here no longer than the shared copy lasts.
    entry.expires = Math.min(entry.expires, Date.now() + stored.ttlMs);
    return stored.value as T;
  }
  const value = await load();
  await store.put(key, value, ttlSeconds * 1000).catch(() => {});
  return value;
}

/** Forgets every lookup this process cached (tests); the copy shared in Redis lasts until it expires. */
export function clearLookupsCache(): void {
  cache.clear();
}
