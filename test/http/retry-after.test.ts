import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/http/retry-after.js';

describe('parseRetryAfter', () => {
  it('given delta-seconds "2", then 2000 ms', () => expect(parseRetryAfter('2')).toBe(2000));
  it('given fractional "0.5", then 500 ms', () => expect(parseRetryAfter('0.5')).toBe(500));
  it('given an HTTP-date 3 s ahead, then about 3000 ms', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:03 GMT', now)).toBe(3000);
  });
  it('given a date in the past, then 0', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', Date.parse('2026-11-21T10:00:00Z'))).toBe(0);
  });
  it.each([undefined, '', 'soon', '-3'])('given %j, then undefined', (v) => expect(parseRetryAfter(v)).toBeUndefined());
  it('given repeated headers, then the first one counts', () => expect(parseRetryAfter(['1', '9'])).toBe(1000));
});
