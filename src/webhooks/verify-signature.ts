import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** One header's value (the first, when sent twice), or undefined. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * True when `signature` is the base64 HMAC-SHA256 of the raw body under `key` (how Xero and Intuit sign).
 * Compared in constant time on equal-length buffers: a wrong-length signature is compared against the
 * digest itself so that it costs the same, then refused.
 */
export function hmacSha256Base64Matches(body: Buffer, signature: string | undefined, key: string): boolean {
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(signature ?? '', 'base64');
  const sameLength = given.length === expected.length;
  return timingSafeEqual(sameLength ? given : expected, expected) && sameLength && signature !== undefined;
}

/**
 * True when a shared secret sent as a header equals the configured one, in constant time whatever their
 * lengths (both are hashed to 32 bytes first).
 */
export function sharedSecretMatches(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** A vendor's time as UTC ISO with ms, or undefined when it is not a time. */
export function isoInstant(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
