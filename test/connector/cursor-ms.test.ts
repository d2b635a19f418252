import { describe, expect, it } from 'vitest';
import { cursorMsOf } from '../../src/connector/cursor-ms.js';
import { DataContractError } from '../../src/errors/index.js';
import { inHostZone } from '../support/host-zone.js';

/**
 * A checkpoint's cursor is a UTC instant the stream wrote; one without its zone was not written by it and is
 * refused (not retried) instead of being read as the host's local time, which would move the read by hours.
 */
const where = { source: 'xero', operation: 'GET /Invoices' };

describe.each(['Asia/Kolkata', 'America/New_York'])('on a worker whose zone is %s', (zone) => {
  inHostZone(zone);

  it('given a cursor in UTC, then its epoch ms', () => {
    expect(cursorMsOf('2026-03-08T07:30:00.000Z', where)).toBe(Date.UTC(2026, 2, 8, 7, 30));
  });

  it('given a cursor with an offset, then that offset places it', () => {
    expect(cursorMsOf('2026-03-08T00:15:00+05:30', where)).toBe(Date.UTC(2026, 2, 7, 18, 45));
  });

  it.each([['2026-03-08T07:30:00'], ['2026-03-08'], ['not a time']])(
    'given the cursor %j, then a DataContractError naming the stream',
    (cursor) => {
      expect(() => cursorMsOf(cursor, where)).toThrow(DataContractError);
      expect(() => cursorMsOf(cursor, where)).toThrow(/^xero GET \/Invoices: checkpoint cursor .* is not an instant/);
    },
  );

  it('given no cursor, then undefined (from the beginning)', () => {
    expect(cursorMsOf(null, where)).toBeUndefined();
  });
});
