import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/http/retry-after.js';
import { inHostZone } from '../support/host-zone.js';

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

describe.each(['Asia/Kolkata', 'America/New_York'])('parseRetryAfter on a host whose zone is %s', (zone) => {
  inHostZone(zone);
  const now = Date.parse('2026-11-21T10:00:00Z');

  it.each([
    ['IMF-fixdate', 'Sat, 21 Nov 2026 10:00:03 GMT'],
    ['obsolete RFC 850', 'Saturday, 21-Nov-26 10:00:03 GMT'],
    ['asctime (no zone written; HTTP defines it as UTC)', 'Sat Nov 21 10:00:03 2026'],
  ])('given an HTTP-date 3 s ahead as %s, then 3000 ms', (_, value) => {
    expect(parseRetryAfter(value, now)).toBe(3000);
  });

  it('given an asctime date with a one-digit day across New York’s fall-back night, then it is read in UTC', () => {
    expect(parseRetryAfter('Sun Nov  1 06:30:05 2026', Date.parse('2026-11-01T06:30:00Z'))).toBe(5000);
  });

  it.each([
    ['2026-11-21T10:00:03'],
    ['Sat, 21 Nov 2026 10:00:03'],
    ['Sat, 31 Nov 2026 10:00:03 GMT'],
    ['Sat, 21 Nov 2026 24:00:03 GMT'],
  ])('given %j (no zone, or not a real time), then undefined (the caller backs off by itself)', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
