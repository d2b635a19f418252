import type { Redis } from 'ioredis';
import { evictionPolicy } from '../redis.js';

/** What /readyz and /metrics report about the state Redis. */
export class RedisHealth {
  constructor(private readonly redis: Redis) {}

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** "noeviction" is the only safe policy (an evicted lock or job loses records). */
  evictionPolicy(): Promise<string> {
    return evictionPolicy(this.redis);
  }

  /** used_memory / maxmemory (0 when no maxmemory is set), and maxmemory itself (0 = unset). */
  async memory(): Promise<{ usedRatio: number; maxmemory: number }> {
    const info = await this.redis.info('memory');
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
    const max = Number(/maxmemory:(\d+)/.exec(info)?.[1] ?? 0);
    return { usedRatio: max > 0 ? used / max : 0, maxmemory: max };
  }
}
