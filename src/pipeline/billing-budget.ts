import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LuaScript } from './lua-script.js';

const TAKE = LuaScript.load('take-paced-slot-1');
const PAUSE = LuaScript.load('pause-paced-slots-1');

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

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly max: number,
    durationMs: number,
  ) {
    this.windowMs = durationMs + Math.max(10, Math.ceil(durationMs * 0.02));
  }

  /** Waits for this request's slot (reserved at once: one wait, never a retry loop). */
  async take(signal?: AbortSignal): Promise<void> {
    const wait = (await TAKE.run(this.redis, [this.key], [this.max, this.windowMs, `${this.id}:${++this.seq}`])) as number;
    if (wait > 0) await sleep(wait, undefined, { signal });
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
