import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { placeInstant } from '../mapping/time.js';
import { MalformedDeliveryError } from './webhook-event.js';

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

/**
 * When a delivery says its change happened, as UTC ISO with ms; undefined when the field is absent. Read
 * with the offset the value carries, else in the zone the vendor documents for the field (`zoneless: 'utc'`:
 * Xero's `eventDateUtc`, `2017-06-21T01:15:39.902`), never the host's: read as host time, an event would be
 * dated hours early on a worker outside UTC and dropped as no newer than the ledger. A value that cannot be
 * placed refuses the delivery (400) naming the field, not the value.
 */
export function isoInstant(value: unknown, field: string, zoneless: 'utc' | 'reject' = 'reject'): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return placeInstant(value, field, {
    zoneless,
    fail: () =>
      new MalformedDeliveryError(
        `${field} is not a time ${zoneless === 'utc' ? 'in ISO 8601 (UTC unless it carries an offset)' : 'in ISO 8601 with its offset'}`,
      ),
  });
}
