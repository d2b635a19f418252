import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const TAKE = LuaScript.load('take-key-slot-1');

/** A slot of a key's budget: call now (`waitMs` 0), or come back in `waitMs` holding `slotAt`. */
export interface KeySlot {
  waitMs: number;
  /** When the slot is, in Redis's time (ms); hand it back as `held` when the wait is over. */
  slotAt: number;
}

/**
 * Per billing key budgets (`billing.rateLimit.scope: key`), shared by every process: `max` calls per
 * `durationMs` for each key, by the key's fingerprint. A full window does not turn a caller away: it
 * reserves a slot in the first window with room, so an upsert job waits once (delayed, no attempt
 * used) and a reconciliation sleeps once. A 429 on one key pauses that key alone until its Retry-After.
 */
export class BillingKeyBudgets {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    private readonly max: number,
    private readonly durationMs: number,
  ) {}

  /** A slot for one call with the key; `held` is a slot given earlier whose wait is over. */
  async slot(keyId: string, held?: number): Promise<KeySlot> {
    return this.run(keyId, held ?? 0, 0);
  }

  /** The key was answered 429: no slot before `ms` from now; returns a slot after the pause for the call that met it. */
  async pause(keyId: string, ms: number): Promise<KeySlot> {
    return this.run(keyId, 0, Math.max(1, Math.ceil(ms)));
  }

  /** Waits for a slot (calls made outside upsert jobs: a reconciliation's listing pages). */
  async take(keyId: string, signal?: AbortSignal): Promise<void> {
    const { waitMs } = await this.slot(keyId);
    if (waitMs > 0) await sleep(waitMs, undefined, { signal });
  }

  private async run(keyId: string, held: number, pauseMs: number): Promise<KeySlot> {
    const [waitMs, slotAt] = (await TAKE.run(
      this.redis,
      [this.keys.billingKeyBudget(keyId)],
      [this.max, this.durationMs, held, pauseMs],
    )) as [number, number];
    return { waitMs, slotAt };
  }
}
