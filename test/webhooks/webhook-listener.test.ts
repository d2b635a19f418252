import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefix } from '../support/redis.js';
import { restartableRedis, type RestartableRedis } from '../support/restartable-redis.js';
import {
  listenerHarness,
  type ListenerHarness,
  QBO_TOKEN,
  REALM,
  sign,
  TENANT_A,
  TENANT_B,
  TENANT_C,
  XERO_APP_KEY,
  XERO_OTHER_KEY,
  ZOHO_SECRET,
} from './listener-harness.js';
import { inHostZone } from '../support/host-zone.js';

/**
 * The webhook listener over real HTTP on loopback, with its own redis-server (frozen in one test, as
 * behind a partition): what each vendor's delivery is answered, and what is durable in Redis after it.
 */
let redis: RestartableRedis;
let h: ListenerHarness;
beforeAll(async () => {
  redis = await restartableRedis('webhooks');
  await redis.start();
  h = await listenerHarness(redis.url);
}, 30_000);
afterAll(async () => {
  await h?.close();
  await dropPrefix(h.redis, h.prefix).catch(() => {});
  h?.redis.disconnect();
  await redis?.close();
});

const xeroEvent = (tenantId: string, resourceId: string, at = '2026-11-27T10:00:00.000Z', category = 'INVOICE') => ({
  resourceUrl: `https://api.xero.com/api.xro/2.0/Invoices/${resourceId}`,
  resourceId,
  eventDateUtc: at,
  eventType: 'UPDATE',
  eventCategory: category,
  tenantId,
  tenantType: 'ORGANISATION',
});
const xeroBody = (events: unknown[]) =>
  JSON.stringify({ events, firstEventSequence: 1, lastEventSequence: events.length, entropy: 'S0m3r4Nd0mt3xt' });
const postXero = (body: string, key: string | undefined) =>
  h.post('/webhooks/xero', body, key ? { 'x-xero-signature': sign(body, key) } : {});

async function pending(conn: string, entity: string): Promise<Record<string, string>> {
  return h.redis.hgetall(h.keys.webhookPending(conn, entity));
}
async function readJobs(conn: string, entity: string): Promise<string[]> {
  const jobs = await h.pull.getJobs(['delayed', 'wait', 'prioritized']);
  return jobs.filter((j) => j.data.connectionId === conn && j.data.entity === entity).map((j) => j.id!);
}

describe('Xero deliveries', () => {
  it('given a correctly signed intent-to-receive (no events), then 200 with an empty body and nothing stored', async () => {
    const res = await postXero(xeroBody([]), XERO_APP_KEY);
    expect(res).toEqual({ status: 200, text: '' });
    expect(await readJobs('xero-a', 'invoices')).toEqual([]);
  });

  it('given an intent-to-receive signed with a wrong key or not signed, then 401 and counted as bad_signature', async () => {
    const before = await h.count('xero', 'bad_signature');
    expect((await postXero(xeroBody([]), 'not-the-key')).status).toBe(401);
    expect((await postXero(xeroBody([]), undefined)).status).toBe(401);
    expect(await h.count('xero', 'bad_signature')).toBe(before + 2);
  });

  it('given a bad signature on a delivery with events, then 401 and nothing enqueued or recorded', async () => {
    const body = xeroBody([xeroEvent(TENANT_A, 'bad-sig-inv')]);
    expect((await postXero(body, 'wrong')).status).toBe(401);
    expect(await pending('xero-a', 'invoices')).not.toHaveProperty('bad-sig-inv');
    expect(await h.redis.exists(h.keys.webhookAnnounced('xero-a'))).toBe(0);
  });

  it('given one app signing for two organisations, when a delivery carries events of both, then each connection gets its own, under one read job per stream', async () => {
    const body = xeroBody([
      xeroEvent(TENANT_A, 'inv-a1'),
      xeroEvent(TENANT_A, 'inv-a2'),
      xeroEvent(TENANT_B, 'inv-b1'),
      xeroEvent(TENANT_A, 'contact-a1', '2026-11-27T10:00:00.000Z', 'CONTACT'),
      xeroEvent(TENANT_A, 'sub-1', '2026-11-27T10:00:00.000Z', 'SUBSCRIPTION'),
    ]);
    const res = await postXero(body, XERO_APP_KEY);
    expect(res).toEqual({ status: 200, text: '' });
    expect(Object.keys(await pending('xero-a', 'invoices')).sort()).toEqual(['inv-a1', 'inv-a2']);
    expect(Object.keys(await pending('xero-b', 'invoices'))).toEqual(['inv-b1']);
    expect(Object.keys(await pending('xero-a', 'customers'))).toEqual(['contact-a1']);
    expect(JSON.parse((await pending('xero-a', 'invoices'))['inv-a1']!)).toEqual({
      op: 'change',
      at: '2026-11-27T10:00:00.000Z',
    });
    expect(await readJobs('xero-a', 'invoices')).toEqual(['webhook-xero-a-invoices-0']);
    expect(await readJobs('xero-b', 'invoices')).toEqual(['webhook-xero-b-invoices-0']);
    expect((await h.health.read('xero-a')).firstDelivery).toBeGreaterThan(0);
  });

  it('given a second delivery within the window, then its events join the same batch: still one read job', async () => {
    const res = await postXero(xeroBody([xeroEvent(TENANT_A, 'inv-a3')]), XERO_APP_KEY);
    expect(res.status).toBe(200);
    expect(Object.keys(await pending('xero-a', 'invoices')).sort()).toEqual(['inv-a1', 'inv-a2', 'inv-a3']);
    expect(await readJobs('xero-a', 'invoices')).toEqual(['webhook-xero-a-invoices-0']);
  });

  it('given a replayed old delivery, then 200, counted as a duplicate, and nothing changes', async () => {
    const before = await pending('xero-a', 'invoices');
    const dup = await h.count('xero', 'duplicate');
    const body = xeroBody([xeroEvent(TENANT_A, 'inv-a1'), xeroEvent(TENANT_A, 'inv-a2')]);
    expect((await postXero(body, XERO_APP_KEY)).status).toBe(200);
    expect(await h.count('xero', 'duplicate')).toBe(dup + 1);
    expect(await pending('xero-a', 'invoices')).toEqual(before);
    expect(await readJobs('xero-a', 'invoices')).toEqual(['webhook-xero-a-invoices-0']);
  });

  it('given an organisation no connection holds (or one whose key did not sign), then 200 and counted unrouted', async () => {
    const before = await h.count('xero', 'unrouted');
    const unknown = xeroBody([xeroEvent('44444444-4444-4444-8444-444444444444', 'x1')]);
    expect(await postXero(unknown, XERO_APP_KEY)).toEqual({ status: 200, text: '' });
    // xero-c's organisation, but signed with the other app's key: not xero-c's delivery.
    const otherApp = xeroBody([xeroEvent(TENANT_C, 'c1')]);
    expect((await postXero(otherApp, XERO_APP_KEY)).status).toBe(200);
    expect(await pending('xero-c', 'invoices')).toEqual({});
    expect(await h.count('xero', 'unrouted')).toBe(before + 2);
    // Signed with its own app's key, it is xero-c's.
    expect((await postXero(otherApp, XERO_OTHER_KEY)).status).toBe(200);
    expect(Object.keys(await pending('xero-c', 'invoices'))).toEqual(['c1']);
  });

  it('given a correctly signed intent-to-receive whose events are null, then it is answered as an empty one: 200, nothing stored', async () => {
    // The intent-to-receive as delivered with `"events": null` (example delivery:
    // https://prismatic.io/docs/example-payloads/xero/triggers/webhook.json; the body's other fields as
    // https://developer.xero.com/documentation/guides/webhooks/configuring-your-server/ documents them).
    const body = JSON.stringify({ events: null, firstEventSequence: 0, lastEventSequence: 0, entropy: 'FMLHZNKCVK' });
    const malformed = await h.count('xero', 'malformed');
    expect(await postXero(body, XERO_APP_KEY)).toEqual({ status: 200, text: '' });
    expect(await h.count('xero', 'malformed')).toBe(malformed);
    expect((await postXero(body, 'not-the-key')).status).toBe(401);
  });

  it('given an event dated far in the future, then its record is recorded without that time, so it outranks no later change', async () => {
    const body = xeroBody([xeroEvent(TENANT_A, 'inv-future', '9999-12-31T23:59:59.000')]);
    expect((await postXero(body, XERO_APP_KEY)).status).toBe(200);
    expect(JSON.parse((await pending('xero-a', 'invoices'))['inv-future']!)).toEqual({ op: 'change', at: '' });
  });

  it('given a correctly signed body that is not JSON, or JSON without events, then 400 and counted malformed', async () => {
    const before = await h.count('xero', 'malformed');
    expect((await postXero('{"events": [', XERO_APP_KEY)).status).toBe(400);
    expect((await postXero('{"what": 1}', XERO_APP_KEY)).status).toBe(400);
    expect(await h.count('xero', 'malformed')).toBe(before + 2);
  });

  it('given a body over webhooks.maxBodyBytes, then 413 before it is verified', async () => {
    const big = xeroBody(Array.from({ length: 40 }, (_, i) => xeroEvent(TENANT_A, `big-${i}`)));
    expect(big.length).toBeGreaterThan(4096);
    expect((await postXero(big, XERO_APP_KEY)).status).toBe(413);
    expect(await pending('xero-a', 'invoices')).not.toHaveProperty('big-0');
  });
});

describe('QuickBooks deliveries', () => {
  it('given the CloudEvents format, then Create/Update are changes, Voided a void and Deleted a delete, routed by realm', async () => {
    const events = [
      ['qbo.invoice.updated.v1', '101'],
      ['qbo.invoice.voided.v1', '102'],
      ['qbo.invoice.deleted.v1', '103'],
      ['qbo.creditmemo.created.v1', '201'],
      ['qbo.customer.merged.v1', '301'],
      ['qbo.account.created.v1', '401'],
    ].map(([type, id], i) => ({
      specversion: '1.0',
      id: `88cd52aa-33b6-4351-9aa4-47572edbd06${i}`,
      source: 'intuit.dsnBgbseACLLRZNxo2dfc4evmEJdxde58xeeYcZliOU=',
      type,
      datacontenttype: 'application/json',
      time: '2026-11-27T10:00:00.179851517Z',
      intuitentityid: id,
      intuitaccountid: REALM,
      data: {},
    }));
    const body = JSON.stringify(events);
    const res = await h.post('/webhooks/quickbooks', body, { 'intuit-signature': sign(body, QBO_TOKEN) });
    expect(res).toEqual({ status: 200, text: '' });
    const invoices = await pending('qbo', 'invoices');
    expect(Object.fromEntries(Object.entries(invoices).map(([id, v]) => [id, JSON.parse(v).op]))).toEqual({
      '101': 'change',
      '102': 'void',
      '103': 'delete',
    });
    expect(JSON.parse(invoices['101']!).at).toBe('2026-11-27T10:00:00.179Z');
    expect(Object.keys(await pending('qbo', 'credit-notes'))).toEqual(['201']);
    expect(Object.keys(await pending('qbo', 'customers'))).toEqual(['301']);
  });

  it('given the older eventNotifications format, then its entities are recorded the same way', async () => {
    const body = JSON.stringify({
      eventNotifications: [
        {
          realmId: REALM,
          dataChangeEvent: {
            entities: [
              { name: 'Invoice', id: '104', operation: 'Void', lastUpdated: '2026-11-27T10:01:00.000Z' },
              { name: 'CreditMemo', id: '202', operation: 'Delete', lastUpdated: '2026-11-27T10:01:00.000Z' },
            ],
          },
        },
        { realmId: '1111', dataChangeEvent: { entities: [{ name: 'Invoice', id: '9', operation: 'Create' }] } },
      ],
    });
    const unrouted = await h.count('quickbooks', 'unrouted');
    const res = await h.post('/webhooks/quickbooks', body, { 'intuit-signature': sign(body, QBO_TOKEN) });
    expect(res.status).toBe(200);
    expect(JSON.parse((await pending('qbo', 'invoices'))['104']!)).toEqual({
      op: 'void',
      at: '2026-11-27T10:01:00.000Z',
    });
    expect(JSON.parse((await pending('qbo', 'credit-notes'))['202']!).op).toBe('delete');
    // Part of the delivery reached a connection: accepted, not unrouted.
    expect(await h.count('quickbooks', 'unrouted')).toBe(unrouted);
  });

  it('given the verifier token of another app, then 401', async () => {
    const body = JSON.stringify([]);
    expect((await h.post('/webhooks/quickbooks', body, { 'intuit-signature': sign(body, 'other') })).status).toBe(401);
  });
});

describe('Zoho Books deliveries', () => {
  const invoice = {
    invoice_id: '460000000012345',
    invoice_number: 'INV-0042',
    last_modified_time: '2026-11-27T15:30:00+0530',
  };

  it('given the workflow secret header and the module parameters, then the record is recorded for that connection', async () => {
    const res = await h.post(
      '/webhooks/zoho-books/zoho?module=invoices&event=edited',
      { invoice },
      {
        'x-erp-sync-secret': ZOHO_SECRET,
      },
    );
    expect(res).toEqual({ status: 200, text: '' });
    expect(JSON.parse((await pending('zoho', 'invoices'))['460000000012345']!)).toEqual({
      op: 'change',
      at: '2026-11-27T10:00:00.000Z',
    });
  });

  it('given the Deleted trigger, then a delete; the record fields unwrapped work the same', async () => {
    const res = await h.post(
      '/webhooks/zoho-books/zoho?module=contacts&event=deleted',
      { contact_id: '460000000000777', contact_name: 'Acme' },
      { 'x-erp-sync-secret': ZOHO_SECRET },
    );
    expect(res.status).toBe(200);
    expect(JSON.parse((await pending('zoho', 'customers'))['460000000000777']!).op).toBe('delete');
  });

  it('given record ids as JSON numbers of 18 and 19 digits (more than a double holds), then each is recorded digit for digit', async () => {
    // Zoho's API documentation prints record ids as JSON numbers (`"invoice_id": 982000000567114`,
    // https://www.zoho.com/books/api/v3/invoices/); a workflow webhook posting the record's fields sends them
    // so, with real ids of 18–19 digits. JSON.parse alone would read 2951840000000123457 as …123456.
    for (const id of ['460000000012345679', '2951840000000123457']) {
      const body = `{"invoice":{"invoice_id":${id},"invoice_number":"INV-0043","last_modified_time":"2026-11-27T15:30:00+0530"}}`;
      const res = await h.post('/webhooks/zoho-books/zoho?module=invoices&event=edited', body, {
        'x-erp-sync-secret': ZOHO_SECRET,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(await pending('zoho', 'invoices'))).toContain(id);
    }
    expect(Object.keys(await pending('zoho', 'invoices'))).not.toContain('2951840000000123456');
  });

  it('given an id written as a number that cannot be read exactly (4.6e17), then 400: refused, never read as another record', async () => {
    const body = '{"invoice":{"invoice_id":4.6e17,"last_modified_time":"2026-11-27T15:30:00+0530"}}';
    const res = await h.post('/webhooks/zoho-books/zoho?module=invoices&event=edited', body, {
      'x-erp-sync-secret': ZOHO_SECRET,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(await pending('zoho', 'invoices'))).not.toContain('460000000000000000');
  });

  it('given a deleted delivery dated 9999-12-31 (a forged or wrong time), then the delete is recorded without a time', async () => {
    const res = await h.post(
      '/webhooks/zoho-books/zoho?module=invoices&event=deleted',
      { invoice: { invoice_id: '460000000099999', last_modified_time: '9999-12-31T23:59:59+0000' } },
      { 'x-erp-sync-secret': ZOHO_SECRET },
    );
    expect(res.status).toBe(200);
    expect(JSON.parse((await pending('zoho', 'invoices'))['460000000099999']!)).toEqual({ op: 'delete', at: '' });
  });

  it('given a wrong or missing secret, an unknown connection, or a connection without webhooks, then 401', async () => {
    const path = '?module=invoices&event=edited';
    expect(
      (await h.post(`/webhooks/zoho-books/zoho${path}`, { invoice }, { 'x-erp-sync-secret': 'nope' })).status,
    ).toBe(401);
    expect((await h.post(`/webhooks/zoho-books/zoho${path}`, { invoice })).status).toBe(401);
    expect(
      (await h.post(`/webhooks/zoho-books/nobody${path}`, { invoice }, { 'x-erp-sync-secret': ZOHO_SECRET })).status,
    ).toBe(401);
    expect(
      (await h.post(`/webhooks/zoho-books/zoho-quiet${path}`, { invoice }, { 'x-erp-sync-secret': ZOHO_SECRET }))
        .status,
    ).toBe(401);
  });

  it('given no module or event parameter, then 400 naming what the URL needs', async () => {
    expect((await h.post('/webhooks/zoho-books/zoho', { invoice }, { 'x-erp-sync-secret': ZOHO_SECRET })).status).toBe(
      400,
    );
  });
});

describe('a Xero delivery on a worker in Asia/Kolkata', () => {
  inHostZone('Asia/Kolkata');

  it('given eventDateUtc as Xero documents it (UTC, no offset), then the event is kept at that UTC instant, not 5.5 hours earlier', async () => {
    const body = xeroBody([xeroEvent(TENANT_A, 'tz-inv-1', '2026-11-27T10:00:03.250')]);
    expect(await postXero(body, XERO_APP_KEY)).toEqual({ status: 200, text: '' });
    expect(JSON.parse((await pending('xero-a', 'invoices'))['tz-inv-1']!)).toEqual({
      op: 'change',
      at: '2026-11-27T10:00:03.250Z',
    });
  });

  it('given an eventDateUtc that is not a time, then 400 and counted malformed, nothing kept', async () => {
    const before = await h.count('xero', 'malformed');
    const body = xeroBody([xeroEvent(TENANT_A, 'tz-inv-2', '27/11/2026 10:00')]);
    expect((await postXero(body, XERO_APP_KEY)).status).toBe(400);
    expect(await h.count('xero', 'malformed')).toBe(before + 1);
    expect(await pending('xero-a', 'invoices')).not.toHaveProperty('tz-inv-2');
  });
});

describe('the listener as a whole', () => {
  it('answers 404 to another path and 405 to another method', async () => {
    expect((await h.post('/webhooks/sage', {})).status).toBe(404);
    expect((await fetch(`${h.url}/webhooks/xero`)).status).toBe(405);
  });

  it('given Redis not answering, then a signed delivery is answered 503 (nothing acknowledged), and accepted when the vendor retries after Redis is back', async () => {
    const body = xeroBody([xeroEvent(TENANT_B, 'during-partition')]);
    redis.freeze();
    try {
      expect((await postXero(body, XERO_APP_KEY)).status).toBe(503);
    } finally {
      redis.thaw();
    }
    expect((await postXero(body, XERO_APP_KEY)).status).toBe(200);
    expect(Object.keys(await pending('xero-b', 'invoices'))).toContain('during-partition');
    expect(await readJobs('xero-b', 'invoices')).toEqual(['webhook-xero-b-invoices-0']);
  }, 20_000);

  // Last in the file: it stops the listener.
  it('given a vendor sending steadily over a kept-alive connection, when the listener stops mid-delivery, then it closes, every delivery answered 2xx is durable, and the rest were refused so the vendor sends them again', async () => {
    const answers: Array<{ id: string; status: number | 'refused' }> = [];
    let sending = true;
    const send = async (id: string) => {
      // fetch keeps its connection alive between deliveries, as the vendors' senders do.
      const status = await postXero(xeroBody([xeroEvent(TENANT_A, id)]), XERO_APP_KEY).then(
        (r) => r.status,
        () => 'refused' as const,
      );
      answers.push({ id, status });
    };
    for (let n = 0; n < 5; n++) await send(`steady-${n}`);
    // The stop comes while a delivery is being stored (Redis held for a moment), so its connection is busy.
    redis.freeze();
    const arrived = once(h.listener.server, 'request');
    const sender = (async () => {
      for (let n = 5; sending; n++) await send(`steady-${n}`);
    })();
    await arrived;
    const closed = h.listener.close();
    redis.thaw();
    // Before the fix, close() never resolved while deliveries kept coming on the connection that was busy.
    await closed;
    sending = false;
    await sender;

    const durable = Object.keys(await pending('xero-a', 'invoices'));
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.id);
    expect(accepted.length).toBeGreaterThanOrEqual(5);
    expect(accepted.filter((id) => !durable.includes(id))).toEqual([]);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503 && a.status !== 'refused')).toEqual([]);
    // Closed: the vendor's next attempt finds no listener, and sends it again later.
    await send('after-close');
    expect(answers.at(-1)).toEqual({ id: 'after-close', status: 'refused' });
  }, 20_000);
});
