import { afterEach, describe, expect, it } from 'vitest';
import { startZohoEmulator, type ZohoEmulator, type ZohoEmulatorOptions } from '../../../sandbox/zoho-books/index.js';
import { accessToken, admin, booksGet } from './zoho-test-client.js';

let emu: ZohoEmulator | undefined;
async function start(options: ZohoEmulatorOptions = {}): Promise<ZohoEmulator> {
  // 04:30Z on 1 Feb = 10:00 IST, so the organisation's day ends 14 h (50,400 s) later.
  emu = await startZohoEmulator({
    records: 20,
    customers: 8,
    creditNotes: 3,
    clock: { now: '2026-02-01T04:30:00Z', frozen: true },
    ...options,
  });
  return emu;
}
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const rateHeaders = (h: Headers) => ({
  limit: h.get('x-rate-limit-limit'),
  remaining: h.get('x-rate-limit-remaining'),
  reset: h.get('x-rate-limit-reset'),
});

describe('Zoho emulator rate limits', () => {
  it('given ratePerMinute 5, when a 6th call is made within the minute, then 429 code 44 with per-minute X-Rate-Limit-* headers and no Retry-After; a minute later calls pass again', async () => {
    const e = await start({ ratePerMinute: 5 });
    const token = await accessToken(e);
    for (let i = 1; i <= 5; i++) {
      const ok = await booksGet(e, token, '/invoices', { per_page: 1 });
      expect(ok.status).toBe(200);
      expect(rateHeaders(ok.headers)).toEqual({ limit: '10000', remaining: String(10000 - i), reset: '50400' });
    }
    const limited = await booksGet(e, token, '/invoices');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 44 });
    expect(String(limited.body.message)).toContain('maximum number of requests per minute');
    expect(rateHeaders(limited.headers)).toEqual({ limit: '5', remaining: '0', reset: '60' });
    expect(limited.headers.get('retry-after')).toBeNull();
    await admin(e, 'POST', 'clock', { advanceSeconds: 30 });
    expect(rateHeaders((await booksGet(e, token, '/invoices')).headers).reset).toBe('30');
    await admin(e, 'POST', 'clock', { advanceSeconds: 30 });
    const again = await booksGet(e, token, '/invoices');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-rate-limit-remaining')).toBe('9994');
    expect(e.stats().rateLimited).toEqual({ minute: 2, day: 0 });
  });

  it("given dailyLimit 3, when a 4th call is made that day, then 429 code 45 with Remaining 0 and Reset = seconds to the organisation's midnight; the next day it passes", async () => {
    const e = await start({ dailyLimit: 3 });
    const token = await accessToken(e);
    for (let i = 0; i < 3; i++) expect((await booksGet(e, token, '/contacts')).status).toBe(200);
    const capped = await booksGet(e, token, '/contacts');
    expect(capped.status).toBe(429);
    expect(capped.body).toEqual({
      code: 45,
      message: 'The API call for this organization has exceeded the maximum call rate limit of 3.',
    });
    expect(rateHeaders(capped.headers)).toEqual({ limit: '3', remaining: '0', reset: '50400' });
    await admin(e, 'POST', 'clock', { advanceSeconds: 50400 });
    expect((await booksGet(e, await accessToken(e), '/contacts')).status).toBe(200);
  });

  it('given a 401 or a wrong organization, when answered, then the call still carries X-Rate-Limit-* headers but is not counted', async () => {
    const e = await start({ ratePerMinute: 2 });
    const token = await accessToken(e);
    for (let i = 0; i < 3; i++)
      expect((await booksGet(e, 'bad', '/invoices')).headers.get('x-rate-limit-remaining')).toBe('10000');
    expect((await booksGet(e, token, '/invoices', { organization_id: null })).status).toBe(400);
    expect((await booksGet(e, token, '/invoices')).status).toBe(200);
    expect((await booksGet(e, token, '/invoices')).status).toBe(200);
    expect((await booksGet(e, token, '/invoices')).status).toBe(429);
  });

  it('given the limit is reached, when admin and token endpoints are called, then they are never rate limited', async () => {
    const e = await start({ ratePerMinute: 1 });
    const token = await accessToken(e);
    await booksGet(e, token, '/invoices');
    expect((await booksGet(e, token, '/invoices')).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await admin(e, 'GET', 'stats')).status).toBe(200);
    expect((await admin(e, 'POST', 'expire-tokens')).status).toBe(200);
    const r = await admin(e, 'POST', 'limits', { ratePerMinute: 100, resetCounters: true });
    expect(r.body).toMatchObject({ ratePerMinute: 100, usedThisMinute: 0 });
    expect((await booksGet(e, await accessToken(e), '/invoices')).status).toBe(200);
  });

  it("given an injected 429 fault, when a Books call is made, then it looks like Zoho's per-minute throttle (code 44, Reset from the fault, no Retry-After)", async () => {
    const e = await start();
    const token = await accessToken(e);
    await admin(e, 'POST', 'faults', { rateLimitNext: 1, retryAfterSeconds: 7 });
    const r = await booksGet(e, token, '/invoices');
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ code: 44 });
    expect(r.headers.get('x-rate-limit-reset')).toBe('7');
    expect(r.headers.get('retry-after')).toBeNull();
    await admin(e, 'POST', 'faults', { errorNext: 1, errorStatus: 500 });
    expect(await booksGet(e, token, '/invoices')).toMatchObject({
      status: 500,
      body: { code: 1000, message: 'Internal error' },
    });
    expect((await booksGet(e, token, '/invoices')).status).toBe(200);
    const journal = await admin<{ entries: { path: string; status: number }[] }>(e, 'GET', 'journal');
    expect(journal.body.entries.map((x) => x.status)).toEqual([200, 429, 500, 200]);
  });
});
