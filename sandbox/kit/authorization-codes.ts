import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EmulatorClock } from './emulator-clock.js';
import type { RouteResult } from './router.js';
import type { ClientCredentials } from './token-registry.js';

/**
 * The authorization-code grant as the ERP emulators play it (RFC 6749 §4.1,
 * https://datatracker.ietf.org/doc/html/rfc6749#section-4.1, with PKCE, RFC 7636): the authorize page (a
 * consent form with Allow and Deny listing the organisations), the redirect back with `code` and `state`,
 * and the checks of the code exchange. What differs per vendor is configured here (PKCE or not, how
 * long a code lives, how organisations are chosen, extra callback parameters, the error page); the token
 * endpoint's bodies stay in the vendor's adapter, which maps a `CodeRefusal` to its own shape.
 *
 * Redirect URIs: a real vendor accepts only the URIs registered for the app. The sandbox accepts any
 * loopback one (`http://127.0.0.1:<any port>/…`, `http://localhost:…`, `http://[::1]:…`, which is what
 * `erp-sync connect` listens on) and the ones in `redirectUris`; anything else is shown as an error page
 * without a redirect, as vendors do.
 */
export interface ConsentOrganisation {
  id: string;
  name: string;
}

export type CodeRefusal = 'invalid_client' | 'unsupported_grant_type' | 'invalid_grant' | 'invalid_request';

export interface AuthorizationCodesOptions {
  /** The product, for the page title ("Zoho Books sandbox"). */
  vendor: string;
  clientId: string;
  clientSecret: string;
  /** Redirect URIs accepted besides loopback ones. */
  redirectUris?: readonly string[];
  /** How long a code may be exchanged, ms. */
  codeTtlMs: number;
  /** Whether a `code_challenge` (S256) is honoured: then the exchange must present its verifier. */
  pkce: boolean;
  /** The organisations the user can grant access to. */
  organisations: () => ConsentOrganisation[];
  /** `all`: the grant reaches every organisation (listed only); `one`: the user picks one; `many`: one or more. */
  choose: 'all' | 'one' | 'many';
  /** Where the consent form posts its decision. */
  decisionPath: string;
  clock: EmulatorClock;
  /** Extra parameters on the redirect with a code (QuickBooks' realmId, Zoho's location). */
  callbackParams?: (organisations: string[]) => Record<string, string>;
  /** The vendor's error page for an authorize request that cannot be redirected (unknown client, redirect URI not registered). */
  errorPage: (problem: 'invalid_client' | 'invalid_redirect_uri', detail: string) => string;
}

interface Pending {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge?: string;
  expiresAt: number;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  organisations: string[];
  expiresAt: number;
  used: boolean;
}

export type CodeOutcome =
  | { ok: true; organisations: string[] }
  | { ok: false; error: CodeRefusal; reason: string; field?: 'clientId' | 'clientSecret' };

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = (status: number, body: string): RouteResult => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  text: body,
});
const sha256url = (s: string) => createHash('sha256').update(s, 'ascii').digest('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Loopback redirect URIs (RFC 8252 §7.3): any port, plain http. */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) && u.hash === '';
  } catch {
    return false;
  }
}

export class AuthorizationCodes {
  private readonly pending = new Map<string, Pending>();
  private readonly codes = new Map<string, Code>();
  /** Codes issued, consents refused, exchanges refused by reason (tests read them). */
  readonly counts = { codes: 0, denied: 0, refused: {} as Record<string, number> };

  constructor(private readonly options: AuthorizationCodesOptions) {}

  private redirect(uri: string, params: Record<string, string | null>): RouteResult {
    const url = new URL(uri);
    for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
    return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
  }

  /** `GET <authorize>`: the consent page, or the vendor's error page, or a redirect with an error. */
  authorize(query: URLSearchParams): RouteResult {
    const o = this.options;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (clientId !== o.clientId) return html(400, o.errorPage('invalid_client', `unknown client_id "${clientId}"`));
    if (!isLoopbackRedirect(redirectUri) && !(o.redirectUris ?? []).includes(redirectUri))
      return html(
        400,
        o.errorPage('invalid_redirect_uri', `redirect_uri "${redirectUri}" is not registered for this app`),
      );
    const state = query.get('state');
    // From here on errors go back to the app (RFC 6749 §4.1.2.1).
    if (query.get('response_type') !== 'code')
      return this.redirect(redirectUri, { error: 'unsupported_response_type', state });
    const challenge = query.get('code_challenge') ?? undefined;
    if (challenge !== undefined && (!o.pkce || (query.get('code_challenge_method') ?? 'plain') !== 'S256'))
      return this.redirect(redirectUri, {
        error: 'invalid_request',
        error_description: 'code_challenge_method must be S256',
        state,
      });
    const id = randomBytes(16).toString('hex');
    this.pending.set(id, { clientId, redirectUri, state, challenge, expiresAt: o.clock.now() + 10 * 60_000 });
    const orgs = o.organisations();
    const input = (org: ConsentOrganisation, i: number) =>
      o.choose === 'all'
        ? `<li>${escape(org.name)} (${escape(org.id)})</li>`
        : `<li><label><input type="${o.choose === 'one' ? 'radio' : 'checkbox'}" name="organisation" value="${escape(org.id)}"${o.choose === 'many' || i === 0 ? ' checked' : ''}> ${escape(org.name)} (${escape(org.id)})</label></li>`;
    return html(
      200,
      `<!doctype html><html><head><meta charset="utf-8"><title>${escape(o.vendor)}: authorise ${escape(clientId)}</title></head><body>
<h1>${escape(o.vendor)}</h1>
<p>The app <strong>${escape(clientId)}</strong> asks to read your accounting data (${escape(query.get('scope') ?? '')}).</p>
<form method="post" action="${escape(o.decisionPath)}">
<input type="hidden" name="request" value="${id}">
<p>${o.choose === 'all' ? 'Organisations it will reach:' : 'Organisations to connect:'}</p>
<ul>${orgs.map(input).join('')}</ul>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>`,
    );
  }

  /** `POST <decisionPath>` from the consent form: a redirect with a code, or with `error=access_denied`. */
  decide(rawBody: string): RouteResult {
    const o = this.options;
    const form = new URLSearchParams(rawBody);
    const id = form.get('request') ?? '';
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (!p || p.expiresAt <= o.clock.now())
      return html(400, o.errorPage('invalid_client', 'this authorisation request is unknown or expired; start again'));
    if (form.get('decision') !== 'allow') {
      this.counts.denied += 1;
      // https://datatracker.ietf.org/doc/html/rfc6749#section-4.1.2.1
      return this.redirect(p.redirectUri, { error: 'access_denied', state: p.state });
    }
    const known = new Set(o.organisations().map((x) => x.id));
    const chosen = o.choose === 'all' ? [...known] : form.getAll('organisation').filter((x) => known.has(x));
    if (chosen.length === 0) return html(400, o.errorPage('invalid_client', 'choose at least one organisation'));
    const code = randomBytes(24).toString('hex');
    this.codes.set(code, {
      clientId: p.clientId,
      redirectUri: p.redirectUri,
      challenge: p.challenge,
      organisations: chosen,
      expiresAt: o.clock.now() + o.codeTtlMs,
      used: false,
    });
    this.counts.codes += 1;
    return this.redirect(p.redirectUri, { code, state: p.state, ...(o.callbackParams?.(chosen) ?? {}) });
  }

  /**
   * The code exchange's checks (RFC 6749 §4.1.3): the client, the code (known, unused, unexpired), the
   * redirect_uri of the authorize request, and the PKCE verifier when a challenge was sent (RFC 7636 §4.6).
   * A code is spent by its first exchange, whatever the outcome of the later checks.
   */
  redeem(form: URLSearchParams, client: ClientCredentials): CodeOutcome {
    const o = this.options;
    if (client.clientId !== o.clientId) return this.refuse('invalid_client', 'unknown client', 'clientId');
    if (client.clientSecret !== o.clientSecret)
      return this.refuse('invalid_client', 'wrong client secret', 'clientSecret');
    if (form.get('grant_type') !== 'authorization_code')
      return this.refuse('unsupported_grant_type', 'grant_type must be authorization_code');
    const c = this.codes.get(form.get('code') ?? '');
    if (!c) return this.refuse('invalid_grant', 'unknown code');
    if (c.used) return this.refuse('invalid_grant', 'code already used');
    c.used = true;
    if (c.expiresAt <= o.clock.now()) return this.refuse('invalid_grant', 'code expired');
    if (c.clientId !== client.clientId) return this.refuse('invalid_grant', 'code issued to another client');
    if ((form.get('redirect_uri') ?? '') !== c.redirectUri)
      return this.refuse('invalid_grant', 'redirect_uri does not match the authorize request');
    if (c.challenge !== undefined) {
      const verifier = form.get('code_verifier');
      if (!verifier || !safeEqual(sha256url(verifier), c.challenge))
        return this.refuse('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    return { ok: true, organisations: c.organisations };
  }

  private refuse(error: CodeRefusal, reason: string, field?: 'clientId' | 'clientSecret'): CodeOutcome {
    this.counts.refused[error] = (this.counts.refused[error] ?? 0) + 1;
    return { ok: false, error, reason, ...(field ? { field } : {}) };
  }
}
