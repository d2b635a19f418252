import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION, type Harness, startHarness, until } from '../../support/harness.js';

/**
 * A first sync whose list page holds more records than the connection's minute allows: a Zoho Books read
 * of 60 invoices (one list page of up to 200, then one detail GET per invoice) on a budget of 20 calls a
 * minute. The test lets each minute pass (the connection's minute window emptied) instead of sleeping it out.
 *
 * - With a settle delay, the read skips on its next start what it already handed over: the pull is put back
 *   in the queue until its next slot (fair scheduling) and each start goes on where the last stopped.
 * - Without one, it could not skip anything: it waits for its slots in place, keeping what it read.
 *
 * Either way it finishes, reading each invoice's detail about once.
 */
const INVOICES = 60;
const PER_MINUTE = 20;

async function startFirstSync(name: string, settleDelaySeconds: number): Promise<Harness> {
  const p = await startHarness({
    name,
    invoices: INVOICES,
    customers: 5,
    settleDelaySeconds,
    sync: { pullConcurrency: 1 },
    rateBudget: { perMinute: PER_MINUTE },
  });
  p.startWorkers(['pull']);
  return p;
}

/** The emulator's journal: invoice list calls, and detail calls with how many distinct invoices they read. */
function invoiceCalls(p: Harness) {
  const entries = p.zoho.journal.list();
  const details = entries.filter((e) => /\/invoices\/[^/?]+(\?|$)/.test(e.path));
  const lists = entries.filter((e) => /\/invoices(\?|$)/.test(e.path));
  return {
    lists: lists.length,
    details: details.length,
    distinct: new Set(details.map((e) => e.path.split('?')[0])).size,
  };
}

describe(`given a Zoho Books first sync of ${INVOICES} invoices on ${PER_MINUTE} vendor calls a minute, with a settle delay`, () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startFirstSync('pull-quota-resume', 1);
  });
  afterAll(() => p?.close());

  it('when the pull is put back for its quota mid-page, again and again, then each start goes on where the last stopped: it finishes, reading each invoice once', async () => {
    const { rt } = p;
    const job = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { jobId: 'resume' });
    let deferrals = 0;
    for (let round = 0; round < 12; round++) {
      const state = await until(
        'the pull to finish or be put back for its quota',
        async () => {
          const s = await job.getState();
          return s === 'completed' || s === 'delayed' || s === 'failed' ? s : undefined;
        },
        20_000,
        25,
      );
      if (state !== 'delayed') break;
      deferrals++;
      // The minute passes: the connection's window is empty again, and the job runs at its slot.
      await p.redis.del(rt.keys.quotaMinute(CONNECTION));
      await (await rt.queues.pull.getJob(job.id!))!.promote();
    }
    const done = (await rt.queues.pull.getJob(job.id!))!;
    const calls = invoiceCalls(p);
    console.log(
      `[pull-quota-resume] deferred ${deferrals} times; ${calls.lists} list calls, ${calls.details} detail calls for ${calls.distinct} invoices; ${await done.getState()}`,
    );
    expect(deferrals).toBeGreaterThanOrEqual(2);
    expect(await done.getState()).toBe('completed');
    // No attempt failed: the deferrals used none (the completion is its one attempt).
    expect(done.failedReason).toBeFalsy();
    expect(done.attemptsMade).toBe(1);
    // Every invoice handed to the upsert queue once (the generated history: some drafts and voids among them).
    expect(calls.distinct).toBeGreaterThanOrEqual(INVOICES - 5);
    expect(await rt.inFlight.total([CONNECTION])).toBe(calls.distinct);
    // About one detail per invoice: a call cut short by a deferral may be read once more, never a page.
    expect(calls.details).toBeLessThanOrEqual(calls.distinct + deferrals * 5);
    // A start costs its list page again, nothing more.
    expect(calls.lists).toBe(deferrals + 1);
  });
});

describe(`given a Zoho Books first sync of ${INVOICES} invoices on ${PER_MINUTE} vendor calls a minute, without a settle delay`, () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startFirstSync('pull-quota-in-place', 0);
  });
  afterAll(() => p?.close());

  it('when the pull spends its minute mid-page, then it waits for its slots in place (the read could not skip what it handed over) and finishes, reading each invoice once', async () => {
    const { rt } = p;
    const job = await rt.queues.pull.add(
      'pull',
      { connectionId: CONNECTION, entity: 'invoices' },
      { jobId: 'in-place' },
    );
    let minutes = 0;
    let delayed = false;
    await until(
      'the pull to finish',
      async () => {
        const s = await job.getState();
        if (s === 'delayed') delayed = true;
        if (s === 'completed' || s === 'failed') return s;
        if (s !== 'active') return undefined;
        const usage = await rt.quotas.usage(CONNECTION);
        if (usage.minute >= PER_MINUTE) {
          // The minute passes: the pull's next in-place poll finds a slot.
          minutes++;
          await p.redis.del(rt.keys.quotaMinute(CONNECTION));
        }
        return undefined;
      },
      30_000,
      50,
    );
    const calls = invoiceCalls(p);
    console.log(
      `[pull-quota-in-place] ${minutes} minutes spent; ${calls.lists} list calls, ${calls.details} detail calls for ${calls.distinct} invoices; delayed: ${delayed}`,
    );
    expect(await job.getState()).toBe('completed');
    expect(delayed).toBe(false);
    expect(minutes).toBeGreaterThanOrEqual(2);
    expect(calls.lists).toBe(1);
    expect(calls.details).toBe(calls.distinct);
    expect(await rt.inFlight.total([CONNECTION])).toBe(calls.distinct);
  });
});
