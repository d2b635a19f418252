import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LuaScript } from './lua-script.js';

const TAKE = LuaScript.load('take-rate-slot-1');

/**
 * Billing calls made outside upsert jobs (reconciliation's listing pages) take their slot from the
 * SAME counter as the upsert queue's BullMQ limiter (`queue.keys.limiter`), so upserts and
 * reconciliation together stay under the one billing rate limit, across every process.
 */
export class BillingBudget {
  constructor(
    private readonly redis: Redis,
    private readonly limiterKey: string,
    private readonly max: number,
    private readonly durationMs: number,
  ) {}

  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = (await TAKE.run(this.redis, [this.limiterKey], [String(this.max), String(this.durationMs)])) as number;
      if (wait <= 0) return;
      await sleep(wait, undefined, { signal });
    }
  }
}
