import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time string equality for secrets (tokens, CSRF tokens, fingerprints): both sides are hashed
 * first, so the lengths are equal and the time taken says nothing about how much of one matched.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
