import { describe, expect, it } from 'vitest';
import { startCallbackServer } from '../../src/auth/callback-server.js';
import { newState, sameState } from '../../src/auth/oauth-state.js';
import { newPkce, pkceChallenge } from '../../src/auth/pkce.js';

/** The vendor-neutral parts of `erp-sync connect`: PKCE, `state`, the loopback callback. */
describe('PKCE and state', () => {
  it('given the RFC 7636 Appendix B verifier, then the S256 challenge is the RFC’s', () => {
    // https://datatracker.ietf.org/doc/html/rfc7636#appendix-B
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('given a new pair, then the verifier has 43 unreserved characters and the challenge is its S256', () => {
    const p = newPkce();
    expect(p.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.challenge).toBe(pkceChallenge(p.verifier));
    expect(p.method).toBe('S256');
    expect(newPkce().verifier).not.toBe(p.verifier);
  });

  it('given a state, then only the same value matches: not a prefix, not empty, not missing', () => {
    const s = newState();
    expect(s.length).toBeGreaterThanOrEqual(43);
    expect(sameState(s, s)).toBe(true);
    expect(sameState(s, s.slice(0, -1))).toBe(false);
    expect(sameState(s, `${s}x`)).toBe(false);
    expect(sameState(s, '')).toBe(false);
    expect(sameState(s, null)).toBe(false);
    expect(sameState(s, newState())).toBe(false);
  });
});

describe('the loopback callback server', () => {
  it('given the browser comes back to the callback path, then the parameters settle the callback and the browser gets the page; other paths and a second visit get 404', async () => {
    const server = await startCallbackServer({
      port: 0,
      path: '/callback',
      page: (p) => ({ status: 200, title: 'Authorised', message: `code ${p.get('code')}` }),
    });
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/favicon.ico`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${server.port}/callback?code=c1&state=s1`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<h1>Authorised</h1><p>code c1</p>');
      const params = await server.callback;
      expect(Object.fromEntries(params)).toEqual({ code: 'c1', state: 's1' });
      expect((await fetch(`http://127.0.0.1:${server.port}/callback?code=c2&state=s1`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('given the page text holds markup, then it is escaped', async () => {
    const server = await startCallbackServer({
      port: 0,
      path: '/cb',
      page: () => ({ status: 400, title: '<b>x</b>', message: '"&' }),
    });
    try {
      const text = await (await fetch(`http://127.0.0.1:${server.port}/cb`)).text();
      expect(text).toContain('&#60;b&#62;x&#60;/b&#62;');
      expect(text).toContain('&#34;&#38;');
    } finally {
      await server.close();
    }
  });
});
