import { createHmac } from 'node:crypto';

/** base64 HMAC-SHA256 of the exact bytes sent: how Xero (`x-xero-signature`) and Intuit (`intuit-signature`) sign. */
export function hmacSha256Base64(body: string, key: string): string {
  return createHmac('sha256', key).update(body, 'utf8').digest('base64');
}
