import { afterEach, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { admin, qboQuery } from '../../connectors/quickbooks/http.js';

describe('QBO sandbox throttling', () => {
  let emu: RunningQuickBooksEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('given more than maxInFlight concurrent requests, then the excess get 429 with Fault code 3001 and no Retry-After', async () => {
    // Each request is held 1.5 s so all eight are in flight together even on a loaded machine.
    emu = await startQuickBooksEmulator({ records: 5, maxInFlight: 3, latencyMs: 1500 });
    const results = await Promise.all(Array.from({ length: 8 }, () => qboQuery(emu!, 'SELECT count(*) FROM Invoice')));
    const throttled = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(throttled).toHaveLength(5);
    expect(throttled[0]!.headers.get('retry-after')).toBeNull();
    expect(throttled[0]!.body.Fault).toEqual({
      Error: [
        {
          Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
          Detail: 'The request limit was reached. Wait 60 seconds and retry.',
          code: '3001',
          element: '',
        },
      ],
      type: 'SERVICE',
    });
    expect(emu.stats()).toMatchObject({ throttled: { inFlight: 5, minute: 0 }, maxInFlightSeen: 3 });
  });

  it('given more than ratePerMinute requests in a minute, then 429 until the window moves on (emulator clock)', async () => {
    emu = await startQuickBooksEmulator({ records: 5, ratePerMinute: 3, now: '2025-03-01T00:00:00Z', frozen: true });
    for (let i = 0; i < 3; i++) expect((await qboQuery(emu, 'SELECT count(*) FROM Invoice')).status).toBe(200);
    expect((await qboQuery(emu, 'SELECT count(*) FROM Invoice')).status).toBe(429);
    await admin(emu, 'clock', { advanceSeconds: 61 });
    expect((await qboQuery(emu, 'SELECT count(*) FROM Invoice')).status).toBe(200);
  });

  it('given injected faults, then QBO shapes: 429 → 3001, 503 → SystemFault 10000', async () => {
    emu = await startQuickBooksEmulator({ records: 5 });
    await admin(emu, 'faults', { rateLimitNext: 1, errorNext: 1, errorStatus: 503 });
    const a = await qboQuery(emu, 'SELECT count(*) FROM Invoice');
    const b = await qboQuery(emu, 'SELECT count(*) FROM Invoice');
    expect([a.status, a.body.Fault.Error[0].code]).toEqual([429, '3001']);
    expect([b.status, b.body.Fault.type, b.body.Fault.Error[0].code]).toEqual([503, 'SystemFault', '10000']);
  });
});
