import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { type ApiUnderTest, startApi } from '../api/api-harness.js';

/** The console's sign-in over HTTP, as a browser page behind (or without) a TLS-terminating proxy sends it. */
describe('console sign-in: the cookie and the origin check follow http.publicUrl and trusted proxies', () => {
  let api: ApiUnderTest;
  let direct: string;

  const signIn = (headers: Record<string, string>) =>
    fetch(`${api.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ token: api.tokens.operator.token }),
    });
  /** Applies these `http` settings as a config reload does. */
  const reloadWith = async (http: Partial<AppConfig['http']>) => {
    const outcome = await api.service.reload(async () => ({ ...api.config, http: { ...api.config.http, ...http } }));
    expect(outcome.result).toBe('ok');
  };

  beforeAll(async () => {
    api = await startApi('console-app', { http: { publicUrl: 'https://sync.example.test' } });
    direct = `http://${new URL(api.url).host}`;
  });
  afterAll(() => api?.close());

  it('given an https publicUrl, when a page of that origin signs in, then 200 and the cookie is Secure; a page of another origin is refused', async () => {
    const published = await signIn({ origin: 'https://sync.example.test' });
    expect(published.status).toBe(200);
    expect(published.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    // Without an Origin (not a browser), the cookie is Secure all the same: the console is published over https.
    expect((await signIn({})).headers.get('set-cookie')).toMatch(/; Secure$/);
    for (const origin of ['https://evil.example', 'http://sync.example.test', 'https://sync.example.test:8443'])
      expect((await signIn({ origin })).status, origin).toBe(403);
  });

  it('given no publicUrl, when the page is reached directly over http, then its own origin signs in and the cookie is not Secure', async () => {
    await reloadWith({ publicUrl: undefined });
    const r = await signIn({ origin: direct });
    expect(r.status).toBe(200);
    expect(r.headers.get('set-cookie')).not.toMatch(/Secure/);
  });

  it('given X-Forwarded-Proto: https, then it counts only from a proxy of http.trustedProxies', async () => {
    const httpsOrigin = direct.replace(/^http:/, 'https:');
    const viaProxy = { origin: httpsOrigin, 'x-forwarded-proto': 'https' };
    await reloadWith({ publicUrl: undefined, trustedProxies: [] });
    const untrusted = await signIn(viaProxy);
    expect(untrusted.status).toBe(403);
    // From anyone, the header made the cookie Secure; now it says nothing from an untrusted peer.
    expect((await signIn({ 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).not.toMatch(/Secure/);

    await reloadWith({ publicUrl: undefined, trustedProxies: ['127.0.0.1'] });
    const trusted = await signIn(viaProxy);
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('set-cookie')).toMatch(/; Secure$/);
  });
});
