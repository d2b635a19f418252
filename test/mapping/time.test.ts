import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inHostZone } from '../support/host-zone.js';
import {
  formatWithOffset,
  formatZohoTimestamp,
  offsetMinutesOf,
  parseCalendarDate,
  parseOffset,
  parseTimestamp,
  placeInstant,
  utcDateOf,
} from '../../src/mapping/time.js';

describe('parseTimestamp', () => {
  it.each([
    ['Zoho +0530 (no colon)', '2025-02-20T16:41:09+0530', '2025-02-20T11:11:09.000Z'],
    ['Zoho -0800 (no colon)', '2013-11-18T02:02:51-0800', '2013-11-18T10:02:51.000Z'],
    ['QuickBooks -08:00', '2015-12-23T12:55:50-08:00', '2015-12-23T20:55:50.000Z'],
    ['QuickBooks +05:30', '2025-02-10T10:19:47+05:30', '2025-02-10T04:49:47.000Z'],
    ['QuickBooks response time with millis', '2025-02-12T09:31:10.123+05:30', '2025-02-12T04:01:10.123Z'],
    ['Xero UpdatedDateUTCString with Z', '2018-11-02T16:31:30Z', '2018-11-02T16:31:30.000Z'],
    ['Xero /Date(ms+0000)/', '/Date(1739334670123+0000)/', '2025-02-12T04:31:10.123Z'],
    ['Xero /Date(ms)/ without offset', '/Date(1552326816230)/', '2019-03-11T17:53:36.230Z'],
    [
      'Xero /Date(ms+0530)/: the offset does not move the instant',
      '/Date(1739334670123+0530)/',
      '2025-02-12T04:31:10.123Z',
    ],
    ['a date before 1970', '/Date(-86400000)/', '1969-12-31T00:00:00.000Z'],
    ['UTC-day boundary: 01:30 IST is the previous UTC day', '2025-02-20T01:30:00+0530', '2025-02-19T20:00:00.000Z'],
    ['sub-millisecond digits are truncated', '2025-02-20T16:41:09.1239+0530', '2025-02-20T11:11:09.123Z'],
    ['surrounding whitespace', ' 2025-02-20T16:41:09+0530 ', '2025-02-20T11:11:09.000Z'],
    ['year boundary going back', '2025-01-01T00:00:00+0100', '2024-12-31T23:00:00.000Z'],
  ])('given %s (%s), when parsed, then it is %s', (_, raw, expected) => {
    expect(parseTimestamp(raw)).toEqual({ ok: true, value: expected });
  });

  it('given the UTC-day boundary case, then its UTC day is 2025-02-19', () => {
    const r = parseTimestamp('2025-02-20T01:30:00+0530');
    expect(r.ok && utcDateOf(r.value)).toBe('2025-02-19');
  });

  it('given a zone-less Xero DateString, when the caller says the vendor means UTC, then it is read as UTC; otherwise rejected', () => {
    expect(parseTimestamp('2025-02-10T00:00:00', { zoneless: 'utc' })).toEqual({
      ok: true,
      value: '2025-02-10T00:00:00.000Z',
    });
    expect(parseTimestamp('2025-02-10T00:00:00', { field: 'last_modified_time' })).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
      field: 'last_modified_time',
    });
  });

  it.each([
    ['2025-02-30T10:00:00Z'],
    ['2025-13-01T00:00:00Z'],
    ['2025-02-20T24:00:00Z'],
    ['2025-02-20T23:60:00Z'],
    ['2025-02-20T23:59:60Z'],
    ['2025-02-20T16:41:09+2500'],
    ['2025-02-20T16:41:09+05:60'],
    ['2025-02-20T16:41:09+053'],
    ['2025-02-20T16:41+0530'],
    ['2025-02-20 16:41:09+0530'],
    ['20/02/2025'],
    ['yesterday'],
    ['/Date(abc)/'],
    ['/Date(1739334670123+05)/'],
    ['/Date(1739334670123+2500)/'],
    ['/Date(999999999999999)/'],
  ])('given the malformed %j, then INVALID_FIELD', (raw) => {
    expect(parseTimestamp(raw)).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
  });

  it.each([[1739334670123], [new Date()], [{}]])('given a non-string %o, then INVALID_FIELD', (raw) => {
    expect(parseTimestamp(raw)).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
  });

  it.each([[null], [undefined], ['']])('given %j, then MISSING_FIELD', (raw) => {
    expect(parseTimestamp(raw)).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
  });
});

describe('parseCalendarDate (never shifted by time zone)', () => {
  it.each([
    ['a plain date', '2025-02-10', '2025-02-10'],
    ['Xero DateString', '2025-02-10T00:00:00', '2025-02-10'],
    ['Xero /Date(ms+0000)/ at UTC midnight', '/Date(1739145600000+0000)/', '2025-02-10'],
    ['Xero /Date(ms)/', '/Date(1741737600000)/', '2025-03-12'],
    ['MS date with +0530: its local calendar day', '/Date(1739125800000+0530)/', '2025-02-10'],
    ['a timestamp just after midnight IST keeps its own date', '2025-02-10T00:30:00+0530', '2025-02-10'],
    ['a leap day', '2024-02-29', '2024-02-29'],
  ])('given %s (%s), then the date is %s', (_, raw, expected) => {
    expect(parseCalendarDate(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([['2025-02-30'], ['2025-2-1'], ['2023-02-29'], ['10/02/2025'], ['2025-02-10T25:00:00'], ['x'], [20250210]])(
    'given %j, then INVALID_FIELD',
    (raw) => {
      expect(parseCalendarDate(raw, 'due_date')).toMatchObject({
        ok: false,
        reason: 'INVALID_FIELD',
        field: 'due_date',
      });
    },
  );

  it('given nothing, then MISSING_FIELD', () => {
    expect(parseCalendarDate(undefined)).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
  });
});

describe('offsets and formatting back to vendor form', () => {
  it.each([
    ['Z', 0],
    ['+0530', 330],
    ['+05:30', 330],
    ['-0800', -480],
    ['-08:00', -480],
    ['+1400', 840],
    ['+0560', undefined],
    ['+1900', undefined],
    ['0530', undefined],
  ])('given the offset %s, then it is %s minutes', (zone, expected) => {
    expect(parseOffset(zone)).toBe(expected);
  });

  it.each([
    ['2025-02-20T16:41:09+0530', 330],
    ['2015-12-23T12:55:50-08:00', -480],
    ['2018-11-02T16:31:30Z', 0],
    ['2025-02-10T00:00:00', undefined],
  ])('given %s, then the org offset is %s', (timestamp, expected) => {
    expect(offsetMinutesOf(timestamp)).toBe(expected);
  });

  it.each([
    ['2025-02-20T11:11:09.000Z', 330, '2025-02-20T16:41:09+0530'],
    ['2025-02-20T11:11:09.999Z', 330, '2025-02-20T16:41:09+0530'], // millis truncated, never rounded up
    ['2025-02-20T11:11:09.000Z', -480, '2025-02-20T03:11:09-0800'],
    ['2025-02-19T20:00:00.000Z', 330, '2025-02-20T01:30:00+0530'],
    ['2025-02-20T11:11:09.000Z', 0, '2025-02-20T11:11:09+0000'],
    ['2025-02-20T11:11:09.000Z', 345, '2025-02-20T16:56:09+0545'],
  ])('given %s, when formatted for Zoho at %i minutes, then %s', (instant, offset, expected) => {
    expect(formatZohoTimestamp(instant, offset)).toBe(expected);
  });

  it('given an instant, when formatted extended, then the offset has a colon (QuickBooks query literal)', () => {
    expect(formatWithOffset(new Date('2015-12-23T20:55:50Z'), -480, 'extended')).toBe('2015-12-23T12:55:50-08:00');
  });

  it('given a bad instant or offset, then formatting throws (programming error, not vendor data)', () => {
    expect(() => formatZohoTimestamp('nope', 330)).toThrow(RangeError);
    expect(() => formatZohoTimestamp('2025-02-20T11:11:09Z', 330.5)).toThrow(RangeError);
    expect(() => formatZohoTimestamp('2025-02-20T11:11:09Z', 19 * 60)).toThrow(RangeError);
    expect(() => utcDateOf('nope')).toThrow(RangeError);
  });

  it('property: formatting to Zoho form at any offset and parsing back gives the same instant (whole seconds)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800 }), // 1970..2100 in seconds
        fc.integer({ min: -12 * 4, max: 14 * 4 }).map((q) => q * 15),
        (seconds, offset) => {
          const instant = new Date(seconds * 1000).toISOString();
          const zoho = formatZohoTimestamp(instant, offset);
          expect(zoho).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/);
          expect(parseTimestamp(zoho)).toEqual({ ok: true, value: instant });
          expect(offsetMinutesOf(zoho)).toBe(offset);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe.each(['Asia/Kolkata', 'America/New_York'])(
  'on a host whose zone is %s (nothing reads the host zone)',
  (zone) => {
    inHostZone(zone);

    it.each([
      ['Xero Date at UTC midnight', '/Date(1739145600000+0000)/', '2025-02-10'],
      ['Xero DateString at midnight', '2025-02-10T00:00:00', '2025-02-10'],
      ['the day New York springs forward', '2026-03-08', '2026-03-08'],
      ['the day New York falls back', '/Date(1793491200000+0000)/', '2026-11-01'],
      ['a QuickBooks TxnDate on New Year’s Eve', '2025-12-31', '2025-12-31'],
    ])('given the calendar date of %s (%s), then it is %s, unshifted', (_, raw, expected) => {
      expect(parseCalendarDate(raw)).toEqual({ ok: true, value: expected });
    });

    it.each([
      ['Xero DateString read as UTC', '2026-03-08T02:30:00', { zoneless: 'utc' as const }, '2026-03-08T02:30:00.000Z'],
      ['an edit one second before midnight in Kolkata', '2026-03-08T23:59:59+0530', {}, '2026-03-08T18:29:59.000Z'],
      ['New York’s repeated hour, first pass', '2026-11-01T01:30:00-04:00', {}, '2026-11-01T05:30:00.000Z'],
      ['New York’s repeated hour, second pass', '2026-11-01T01:30:00-05:00', {}, '2026-11-01T06:30:00.000Z'],
    ])('given %s (%s), then the instant is the one its zone names', (_, raw, options, expected) => {
      expect(parseTimestamp(raw, options)).toEqual({ ok: true, value: expected });
    });

    it('given a UTC instant just before midnight UTC, then its UTC day and its Zoho form at +0530 are those of that instant', () => {
      expect(utcDateOf('2026-03-07T23:59:59.000Z')).toBe('2026-03-07');
      expect(formatZohoTimestamp('2026-03-07T23:59:59.000Z', 330)).toBe('2026-03-08T05:29:59+0530');
    });

    it('given a string without a zone, then utcDateOf and formatWithOffset refuse it instead of reading host time', () => {
      expect(() => utcDateOf('2026-03-07T23:59:59')).toThrow(RangeError);
      expect(() => formatWithOffset('2026-03-07T23:59:59', 0, 'extended')).toThrow(RangeError);
    });

    it('given a time that cannot be placed, then placeInstant throws what the caller builds, from a message naming the field', () => {
      const fail = (message: string) => new TypeError(message);
      expect(() => placeInstant('2026-03-07T23:59:59', 'eventDateUtc', { fail })).toThrow(
        /^eventDateUtc "2026-03-07T23:59:59" has no time zone offset$/,
      );
      expect(placeInstant('2026-03-07T23:59:59', 'eventDateUtc', { zoneless: 'utc', fail })).toBe(
        '2026-03-07T23:59:59.000Z',
      );
    });
  },
);
