import type { Redis } from 'ioredis';
import { dataNodes, evictionPolicy } from '../redis.js';

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

  /**
   * used_memory / maxmemory (0 when no maxmemory is set), and maxmemory itself (0 = unset). On a Redis
   * Cluster each master has its own memory: the fullest one is reported (it refuses writes first), and
   * maxmemory is 0 if any master runs without one (the memory alerts could not fire for it).
   */
  async memory(): Promise<{ usedRatio: number; maxmemory: number }> {
    const nodes = await Promise.all(
      (await dataNodes(this.redis)).map(async (node) => {
        const info = await node.info('memory');
        const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
        const max = Number(/maxmemory:(\d+)/.exec(info)?.[1] ?? 0);
        return { usedRatio: max > 0 ? used / max : 0, maxmemory: max };
      }),
    );
    const fullest = nodes.reduce(
      (a, b) => (b.usedRatio > a.usedRatio ? b : a),
      nodes[0] ?? { usedRatio: 0, maxmemory: 0 },
    );
    return { usedRatio: fullest.usedRatio, maxmemory: nodes.some((n) => n.maxmemory === 0) ? 0 : fullest.maxmemory };
  }
}
