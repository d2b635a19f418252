import type { Redis } from 'ioredis';
import type { LookupsStore } from '../connector/lookups-cache.js';
import type { StateKeys } from './keys.js';

/**
 * A connection's vendor lookups (organisation, tax settings, currencies: plain JSON) kept in Redis for
 * their cache lifetime, so every process of a deployment reuses what one of them read: a one-shot
 * `erp-sync reconcile --repair` started beside a running worker reads the vendor for its records only,
 * not for the lookups again (a fresh Zoho process spent 8 calls on them before its first record). Never
 * holds credentials: lookups are what the mappers need from the vendor's settings.
 */
export function sharedLookups(redis: Redis, keys: Pick<StateKeys, 'lookups'>, connectionId: string): LookupsStore {
  return {
    async get(key) {
      const k = keys.lookups(connectionId, key);
      const [json, ttlMs] = await Promise.all([redis.get(k), redis.pttl(k)]);
      if (json === null || ttlMs <= 0) return undefined;
      return { value: JSON.parse(json) as unknown, ttlMs };
    },
    async put(key, value, ttlMs) {
      await redis.set(keys.lookups(connectionId, key), JSON.stringify(value), 'PX', ttlMs);
    },
  };
}
