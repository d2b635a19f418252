import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const NEXT = LuaScript.load('next-wake-1');

/**
 * Jobs of one connection put back in the queue to wait for the same thing (its next vendor quota slot,
 * one of its job slots) wake one after another, `spacingMs` apart, instead of all at the instant the
 * first slot frees: two thousand backfill windows waiting on a spent minute would otherwise all be taken
 * by the workers at once, and all but one put back again. Shared by every process.
 */
export class WakeLine {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /** The instant the next waiter of (connection, lane) wakes: `earliestMs` or `spacingMs` after the one before. */
  async next(connection: string, lane: 'quota' | 'slots', earliestMs: number, spacingMs: number): Promise<number> {
    return Number(
      await NEXT.run(
        this.redis,
        [this.keys.wakeLine(connection, lane)],
        [this.now(), Math.round(earliestMs), Math.max(1, Math.round(spacingMs))],
      ),
    );
  }
}
