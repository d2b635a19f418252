import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh `state` for one authorisation request: 32 random bytes, base64url (RFC 6749 §10.12). */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether the `state` a callback carries is the one sent, compared in constant time. Both sides are hashed
 * first so values of different lengths compare in the same time too.
 */
export function sameState(sent: string, received: string | null | undefined): boolean {
  if (typeof received !== 'string' || received === '') return false;
  const a = createHash('sha256').update(sent).digest();
  const b = createHash('sha256').update(received).digest();
  return timingSafeEqual(a, b);
}
