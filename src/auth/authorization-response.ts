import { sameState } from './oauth-state.js';

/** What an authorization response (the redirect back from the vendor) says: a code, or why there is none. */
export type AuthorizationResponse = { code: string } | { refused: string };

/**
 * Reads an authorization response (RFC 6749 §4.1.2, https://datatracker.ietf.org/doc/html/rfc6749#section-4.1.2)
 * in the order it is checked: `state` first (a stale or forged redirect is refused before anything else of
 * it is believed), then the vendor's error, then the code.
 */
export function readAuthorizationResponse(params: URLSearchParams, state: string): AuthorizationResponse {
  if (!sameState(state, params.get('state')))
    return { refused: "the redirect's state does not match this request (a stale or forged redirect): refused" };
  const error = params.get('error');
  if (error === 'access_denied') return { refused: 'consent was denied at the vendor (access_denied)' };
  if (error)
    return {
      refused: `the vendor answered error=${error}${params.get('error_description') ? `: ${params.get('error_description')}` : ''}`,
    };
  const code = params.get('code');
  if (!code) return { refused: 'the redirect carried no authorization code' };
  return { code };
}
