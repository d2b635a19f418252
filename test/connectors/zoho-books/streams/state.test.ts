import { describe, expect, it } from 'vitest';
import { cursorParam, inRange, instantOf, offsetMinutesAt } from '../../../../connectors/zoho-books/streams/state.js';
import { inHostZone } from '../../../support/host-zone.js';

/**
 * Zoho's `last_modified_time` filter is sent in the organisation's own offset as it was at the cursor
 * (https://www.zoho.com/books/api/v3/invoices/), whatever zone the worker runs in; the rows' timestamps are
 * placed by the offset they carry.
 */
describe.each(['Asia/Kolkata', 'America/New_York', 'UTC'])('on a worker whose zone is %s', (zone) => {
  inHostZone(zone);

  it('given an organisation in New York, then the cursor is sent in EST before the spring-forward instant and in EDT from it', () => {
    const before = Date.parse('2026-03-08T06:59:59Z');
    const after = Date.parse('2026-03-08T07:00:00Z');
    expect(offsetMinutesAt(new Date(before), 'America/New_York')).toBe(-300);
    expect(offsetMinutesAt(new Date(after), 'America/New_York')).toBe(-240);
    expect(cursorParam(before, -300)).toBe('2026-03-08T01:59:59-0500');
    expect(cursorParam(after, -240)).toBe('2026-03-08T03:00:00-0400');
  });

  it('given an organisation in India, then a cursor just after UTC midnight is sent on the Indian calendar day it is', () => {
    const ms = Date.parse('2026-03-07T18:30:00Z');
    expect(offsetMinutesAt(new Date(ms), 'Asia/Kolkata')).toBe(330);
    expect(cursorParam(ms, 330)).toBe('2026-03-08T00:00:00+0530');
  });

  it('given rows modified around the cursor in the organisation’s offset, then the client-side filter places them by that offset', () => {
    const wanted = inRange(Date.parse('2026-03-07T18:30:00Z'), Date.parse('2026-03-08T00:00:00Z'));
    expect(wanted('2026-03-07T23:59:59+0530')).toBe(false);
    expect(wanted('2026-03-08T00:00:00+0530')).toBe(true);
    expect(instantOf('2026-03-08T00:00:00')).toBeUndefined();
  });
});
