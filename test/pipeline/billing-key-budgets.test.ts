import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingKeyBudgets } from '../../src/pipeline/billing-key-budgets.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * Per billing key budgets on real Redis. Windows are aligned to Redis time: a window of 10^12 ms (from
 * 2001 to 2033) never ends during a test, so "the next window" is the one starting at 2·10^12.
 */
describe('billing key budgets (rateLimit.scope key)', () => {
  const prefix = testPrefix('key-budgets');
  const keys = stateKeys(prefix);
  const WINDOW = 1e12;
  const NEXT = 2e12;
  let redis: Redis;
  let budgets: BillingKeyBudgets;
  beforeAll(() => {
    redis = connect();
    budgets = new BillingKeyBudgets(redis, keys, 2, WINDOW);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a window of 2 slots, when 5 callers ask, then 2 go now and the others are each given a slot of a later window, in order, 2 per window', async () => {
    const slots = [];
    for (let i = 0; i < 5; i++) slots.push(await budgets.slot('aaaa0001'));
    expect(slots.slice(0, 2).map((s) => s.waitMs)).toEqual([0, 0]);
    expect(slots.slice(2).map((s) => s.slotAt)).toEqual([NEXT, NEXT, NEXT + WINDOW]);
    for (const s of slots.slice(2)) expect(s.waitMs).toBeGreaterThan(NEXT - Date.now() - 60_000);
    expect(await redis.pttl(keys.billingKeyBudget('aaaa0001'))).toBeGreaterThan(0);
  });

  it("given one key's windows full, when another key asks, then it goes now: each key has its own budget", async () => {
    for (let i = 0; i < 3; i++) await budgets.slot('aaaa0002');
    expect((await budgets.slot('bbbb0002')).waitMs).toBe(0);
    expect((await budgets.slot('bbbb0002')).waitMs).toBe(0);
    await expect(budgets.take('bbbb0003')).resolves.toBeUndefined();
  });

  it('given a slot whose time has come, when its holder asks with it, then it goes now without taking another slot', async () => {
    await budgets.slot('aaaa0003');
    await budgets.slot('aaaa0003');
    const held = Date.now();
    expect(await budgets.slot('aaaa0003', held)).toEqual({ waitMs: 0, slotAt: held });
    // The window's count did not move: the next caller gets the first slot of the next window.
    expect((await budgets.slot('aaaa0003')).slotAt).toBe(NEXT);
    // A slot older than a window is spent, not used again: its holder is given a new one.
    expect((await budgets.slot('aaaa0003', held - WINDOW - 1)).slotAt).toBe(NEXT);
  });

  it("given a 429 on one key, when it is paused, then that key's callers (and slots held from before) wait for the pause to end, and other keys do not", async () => {
    const before = Date.now();
    const afterPause = await budgets.pause('aaaa0004', 60_000);
    expect(afterPause.slotAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(afterPause.waitMs).toBeGreaterThan(55_000);
    const next = await budgets.slot('aaaa0004', Date.now());
    expect(next.slotAt).toBeGreaterThanOrEqual(before + 60_000);
    expect((await budgets.slot('bbbb0004')).waitMs).toBe(0);
    // A pause never shortens a longer one.
    await budgets.pause('aaaa0004', 1_000);
    expect((await budgets.slot('aaaa0004')).slotAt).toBeGreaterThanOrEqual(before + 60_000);
  });
});
