import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): the verifier kept by the client, the S256 challenge sent in the authorize request. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** `BASE64URL(SHA256(verifier))`, RFC 7636 §4.2 (https://datatracker.ietf.org/doc/html/rfc7636#section-4.2). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A new verifier of 43 characters from 32 random bytes (the RFC's recommendation, §4.1), and its challenge. */
export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}
