import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LuaScript } from './lua-script.js';

const TAKE = LuaScript.load('take-paced-slots-1');
const PAUSE = LuaScript.load('pause-paced-slots-1');
/** Slots one script call hands out at most (bounds the script's time inside Redis). */
const MAX_SLOTS_PER_CALL = 64;

/**
 * The deployment's billing budget (`billing.rateLimit`, `scope: deployment`): every billing request of
 * every process takes a slot first (the billing client's `pace` hook), so no window of `durationMs`
 * holds more than `max` requests, wherever the billing service starts its own windows. Retries,
 * attachments, customers and reconciliation's listing pages count like upserts: each is a request.
 */
export class BillingBudget {
  /**
   * A few ms added to the window: a request is counted when its slot is taken, and reaches billing a
   * little later, by a delay that varies from one request to the next. 2 % of the window (10 ms at
   * least) keeps two requests a window apart here a window apart there too, for 98 % of the limit.
   */
  private readonly windowMs: number;
  private seq = 0;
  private readonly id = randomUUID();
  /** Callers waiting for the next round trip, and whether one is on its way. */
  private waiting: Array<{ resolve(waitMs: number): void; reject(err: unknown): void }> = [];
  private asking = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly max: number,
    durationMs: number,
  ) {
    this.windowMs = durationMs + Math.max(10, Math.ceil(durationMs * 0.02));
  }

  /**
   * Waits for this request's slot (reserved at once: one wait, never a retry loop). The callers of this
   * process that ask while a round trip for slots is on its way (or in the same tick) share the next one:
   * one script call hands each its own slot, as separate calls in a row would (take-paced-slots-1.lua), so
   * a worker running many upserts at once pays one Redis call per few requests instead of one each.
   */
  async take(signal?: AbortSignal): Promise<void> {
    const wait = await new Promise<number>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (this.waiting.length === 1 && !this.asking) process.nextTick(() => void this.ask());
    });
    if (wait > 0) await sleep(wait, undefined, { signal });
  }

  /** One round trip for every caller waiting, then again for those who came meanwhile. */
  private async ask(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      while (this.waiting.length) {
        const callers = this.waiting.splice(0, MAX_SLOTS_PER_CALL);
        const first = this.seq + 1;
        this.seq += callers.length;
        try {
          const waits = (await TAKE.run(
            this.redis,
            [this.key],
            [this.max, this.windowMs, this.id, first, callers.length],
          )) as number[];
          callers.forEach((c, i) => c.resolve(waits[i]!));
        } catch (err) {
          for (const c of callers) c.reject(err);
        }
      }
    } finally {
      this.asking = false;
    }
  }

  /**
   * Billing answered 429 with Retry-After: no request of any process is handed a slot before `ms` from
   * now. Jobs already running (a batch's next record, another request of the same job) wait it out
   * instead of meeting another 429; the queue's own pause keeps new jobs from starting meanwhile.
   */
  async pause(ms: number): Promise<void> {
    await PAUSE.run(this.redis, [this.key], [ms, this.windowMs]);
  }
}
