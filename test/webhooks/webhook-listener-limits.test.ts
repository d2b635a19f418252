import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPrefix, TEST_REDIS_URL } from '../support/redis.js';
import { until } from '../support/until.js';
import { listenerHarness, type ListenerHarness, ZOHO_SECRET } from './listener-harness.js';

/**
 * What an unauthenticated sender can cost the webhook port: Zoho's secret header is checked before the body
 * is read, bodies read before their signature is checked are capped at once, and refusals are summed in the
 * log rather than written one line each. Real HTTP on loopback, real Redis.
 */
let h: ListenerHarness | undefined;
afterEach(async () => {
  if (!h) return;
  await h.close();
  await dropPrefix(h.redis, h.prefix);
  h.redis.disconnect();
  h = undefined;
});

/** A POST whose headers and first bytes are sent and whose body is left open: `end()` sends the rest. */
function openDelivery(url: string, path: string, headers: Record<string, string> = {}) {
  const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
  req.on('error', () => {}); // the listener may end the connection once it has answered
  req.write('{"events":[');
  const answer = once(req, 'response').then(([res]) => {
    (res as IncomingMessage).resume();
    const { statusCode, headers } = res as IncomingMessage;
    return { status: statusCode, connection: headers.connection };
  });
  return { answer, end: () => req.end(']}') };
}

describe('Zoho deliveries: the secret header before the body', () => {
  it('given a delivery without the right secret header (or to an unknown connection), when its body has not all arrived, then it is answered 401 at once and the connection ends', async () => {
    h = await listenerHarness(TEST_REDIS_URL);
    const query = '?module=invoices&event=edited';
    const wrong = openDelivery(h.url, `/webhooks/zoho-books/zoho${query}`, { 'x-erp-sync-secret': `${ZOHO_SECRET}x` });
    expect(await wrong.answer).toEqual({ status: 401, connection: 'close' });
    const none = openDelivery(h.url, `/webhooks/zoho-books/zoho${query}`);
    expect(await none.answer).toEqual({ status: 401, connection: 'close' });
    const unknown = openDelivery(h.url, `/webhooks/zoho-books/nobody${query}`, { 'x-erp-sync-secret': ZOHO_SECRET });
    expect(await unknown.answer).toEqual({ status: 401, connection: 'close' });
    expect(await h.count('zoho-books', 'bad_signature')).toBe(3);
    // The right secret: its body is read (and not counted among the unverified), then parsed.
    const right = openDelivery(h.url, `/webhooks/zoho-books/zoho${query}`, { 'x-erp-sync-secret': ZOHO_SECRET });
    right.end();
    expect((await right.answer).status).toBe(400); // `{"events":[]}` has no invoice_id: malformed, past the secret
  });
});

describe('signed bodies read before they are verified', () => {
  it('given two Xero deliveries whose bodies are still arriving and a cap of two, when a third comes, then it is answered 503 unread and counted overloaded; once they end, deliveries are read again', async () => {
    h = await listenerHarness(TEST_REDIS_URL, undefined, { maxUnverifiedBodies: 2 });
    const first = openDelivery(h.url, '/webhooks/xero');
    const second = openDelivery(h.url, '/webhooks/xero');
    await until('two bodies being read', () => h!.listener.unverifiedBodies === 2);

    const third = await h.post('/webhooks/xero', '{}', { 'x-xero-signature': 'forged' });
    expect(third.status).toBe(503);
    expect(await h.count('xero', 'overloaded')).toBe(1);

    first.end();
    second.end();
    expect((await first.answer).status).toBe(401);
    expect((await second.answer).status).toBe(401);
    expect(h.listener.unverifiedBodies).toBe(0);
    expect((await h.post('/webhooks/xero', '{}', { 'x-xero-signature': 'forged' })).status).toBe(401);
  });
});

describe('the log of refused deliveries', () => {
  it('given 20 forged deliveries, then the log has one line for the first and, when the interval ends, one line summing the other 19; the metric counts all 20', async () => {
    h = await listenerHarness(TEST_REDIS_URL, undefined, { refusalLogEveryMs: 600_000 });
    for (let i = 0; i < 20; i++)
      expect((await h.post('/webhooks/xero', `{"n":${i}}`, { 'x-xero-signature': 'forged' })).status).toBe(401);
    expect(await h.count('xero', 'bad_signature')).toBe(20);
    const refusals = () => h!.lines.map((l) => JSON.parse(l)).filter((l) => /refused/.test(l.msg));
    expect(refusals()).toEqual([expect.objectContaining({ system: 'xero', reason: 'bad_signature' })]);

    await h.listener.close(); // ends the interval early: what was counted is logged
    const [, summed, ...more] = refusals();
    expect(more).toEqual([]);
    expect(summed).toMatchObject({
      msg: expect.stringContaining('webhook deliveries refused in the last 600 s: 19'),
      refused: { 'xero bad_signature': { count: 19 } },
    });
    expect(h.lines.join('\n')).not.toContain('forged');
  });
});
