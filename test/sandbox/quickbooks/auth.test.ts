import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { admin, qboGet, qboQuery, refresh } from '../../connectors/quickbooks/http.js';

describe('QBO sandbox OAuth and auth faults', () => {
  let emu: RunningQuickBooksEmulator;
  beforeAll(async () => {
    emu = await startQuickBooksEmulator({
      now: '2025-03-01T00:00:00Z',
      frozen: true,
      records: 5,
      accessTokenTtlSeconds: 600,
    });
  });
  afterAll(() => emu.close());

  it('given a refresh, then a NEW refresh token comes back and the spent one gets {"error":"invalid_grant"} 400', async () => {
    const first = await refresh(emu, 'qbo-sandbox-refresh-token');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
    expect(first.body.refresh_token).not.toBe('qbo-sandbox-refresh-token');
    const stale = await refresh(emu, 'qbo-sandbox-refresh-token');
    expect(stale).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    const next = await refresh(emu, first.body.refresh_token);
    expect(next.status).toBe(200);
    expect((await admin(emu, 'tokens')).body).toEqual({ refreshToken: next.body.refresh_token, refreshes: 2 });
    // The access token from the first refresh still works until it expires.
    expect((await qboQuery(emu, 'SELECT count(*) FROM Invoice', first.body.access_token)).status).toBe(200);
  });

  it('given wrong client credentials, then 401 invalid_client', async () => {
    expect(await refresh(emu, 'whatever', 'someone:else')).toEqual({ status: 401, body: { error: 'invalid_client' } });
  });

  it('given no token or an expired one, then the lowercase 401 fault (code 3200) with an intuit_tid header', async () => {
    const none = await qboQuery(emu, 'SELECT * FROM Invoice', '');
    expect(none.status).toBe(401);
    expect(none.headers.get('intuit_tid')).toMatch(/[0-9a-f-]{36}/);
    expect(none.body).toEqual({
      fault: {
        error: [
          {
            message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
            detail: 'Token invalid: no valid bearer token',
            code: '3200',
          },
        ],
        type: 'AUTHENTICATION',
      },
    });
    const token = emu.tokens.issue(60);
    emu.clock.set({ advanceSeconds: 61 });
    const expired = await qboQuery(emu, 'SELECT * FROM Invoice', token);
    expect(expired.status).toBe(401);
    expect(expired.body.fault.error[0].detail).toMatch(/Token expired/);
  });

  it('given another realm in the path, then 403 AuthorizationFault (3100)', async () => {
    const res = await fetch(`${emu.url}/v3/company/123/query?query=${encodeURIComponent('SELECT * FROM Invoice')}`, {
      headers: { authorization: `Bearer ${emu.tokens.issue()}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).Fault.Error[0].code).toBe('3100');
  });

  it('given a read of one invoice, then {Invoice, time}; an unknown id answers 610 Object Not Found (HTTP 400)', async () => {
    const id = [...emu.store.docs.Invoice.keys()][0]!;
    const one = await qboGet(emu, `invoice/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.Invoice.Id).toBe(id);
    expect(one.body.time).toMatch(/\+05:30$/);
    const missing = await qboGet(emu, 'invoice/999999');
    expect(missing.status).toBe(400);
    expect(missing.body.Fault).toMatchObject({
      type: 'ValidationFault',
      Error: [{ code: '610', Message: 'Object Not Found' }],
    });
  });
});
