import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

// Same arithmetic as BullMQ's own limiter (prepareJobForProcessing.lua): INCR, PEXPIRE on the first.
const TAKE = `
local n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[2]) ttl = tonumber(ARGV[2]) end
  return ttl
end
return 0`;

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
      const wait = (await this.redis.eval(TAKE, 1, this.limiterKey, String(this.max), String(this.durationMs))) as number;
      if (wait <= 0) return;
      await sleep(wait, undefined, { signal });
    }
  }
}
