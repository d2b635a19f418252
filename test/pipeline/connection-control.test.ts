import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionControl } from '../../src/pipeline/connection-control.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The per-connection control store: pause, resume and the jobs held meanwhile, shared in Redis. */
describe('ConnectionControl', () => {
  const prefix = testPrefix('connection-control');
  const a = connect();
  const b = connect();
  // Two processes: what one writes, the other reads.
  const one = new ConnectionControl(a, stateKeys(prefix));
  const other = new ConnectionControl(b, stateKeys(prefix));
  afterAll(async () => {
    await dropPrefix(a, prefix);
    await a.quit();
    await b.quit();
  });

  it('given a connection never paused, then it is running and a job of it starting is not held', async () => {
    expect(await one.state('c-new')).toEqual({ state: 'running' });
    expect(await one.holdIfPaused('c-new', { queue: 'pull', jobId: 'j1' })).toBeUndefined();
    expect(await one.heldCount('c-new')).toBe(0);
  });

  it('given a pause by one process, then every process sees it paused with since, by and reason', async () => {
    const r = await one.pause('c1', { by: 'ops@host', reason: 'vendor migration' }, 1_000);
    expect(r).toEqual({ pause: { since: 1_000, by: 'ops@host', reason: 'vendor migration' }, changed: true });
    expect(await other.state('c1')).toEqual({
      state: 'paused',
      since: 1_000,
      by: 'ops@host',
      reason: 'vendor migration',
    });
    expect(await other.state('c2')).toEqual({ state: 'running' });
  });

  it('given a paused connection, when it is paused again, then the first pause stands (since, by, reason) and nothing changed', async () => {
    const r = await other.pause('c1', { by: 'someone-else', reason: 'another reason' }, 5_000);
    expect(r).toEqual({ pause: { since: 1_000, by: 'ops@host', reason: 'vendor migration' }, changed: false });
    expect(await one.state('c1')).toMatchObject({ since: 1_000, reason: 'vendor migration' });
  });

  it('given a paused connection, when its jobs start, then each is recorded as held (once each) and the pause returned; a job passed without an id records nothing', async () => {
    expect(await one.holdIfPaused('c1', { queue: 'pull', jobId: 'now-c1-invoices-x' })).toMatchObject({ since: 1_000 });
    expect(await other.holdIfPaused('c1', { queue: 'upsert', jobId: 'up-c1-inv-7-abc' })).toMatchObject({
      since: 1_000,
    });
    expect(await other.holdIfPaused('c1', { queue: 'upsert', jobId: 'up-c1-inv-7-abc' })).toMatchObject({
      since: 1_000,
    });
    expect(await one.holdIfPaused('c1')).toMatchObject({ since: 1_000 });
    expect(await one.heldCount('c1')).toBe(2);
  });

  it('given held jobs, when the connection is resumed, then it runs again and the resume returns the pause and the held jobs, which stay recorded until released', async () => {
    const r = await other.resume('c1');
    expect(r.pause).toEqual({ since: 1_000, by: 'ops@host', reason: 'vendor migration' });
    expect(r.held).toEqual(
      expect.arrayContaining([
        { queue: 'pull', jobId: 'now-c1-invoices-x' },
        { queue: 'upsert', jobId: 'up-c1-inv-7-abc' },
      ]),
    );
    expect(r.held).toHaveLength(2);
    expect(await one.state('c1')).toEqual({ state: 'running' });
    expect(await one.holdIfPaused('c1', { queue: 'pull', jobId: 'later' })).toBeUndefined();
    // Interrupted before releasing: a second resume finds them still.
    expect((await one.resume('c1')).held).toHaveLength(2);
    await one.released('c1', r.held);
    expect(await one.heldCount('c1')).toBe(0);
    expect(await one.resume('c1')).toEqual({ held: [] });
  });

  it('given a reason longer than 300 characters, then it is kept to 300', async () => {
    const { pause } = await one.pause('c3', { reason: 'x'.repeat(1_000) });
    expect(pause.reason).toHaveLength(300);
    expect(await one.resume('c3')).toMatchObject({ pause: { reason: 'x'.repeat(300) } });
  });
});
