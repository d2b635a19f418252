import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buyerIdFor,
  creditNoteIdFor,
  escapeIdPart,
  invoiceIdFor,
  jobIdSafe,
  MAX_ID_LENGTH,
  MAX_JOB_ID_LENGTH,
  unescapeIdPart,
} from '../../src/mapping/ids.js';

const SAFE_ID = /^[A-Za-z0-9._~-]+$/;

/** Strings over an alphabet built to collide: separators, escape char, hex digits, unicode, lone surrogate. */
const nasty = fc.string({
  unit: fc.constantFrom('a', 'A', '3', 'F', '-', '_', ':', '/', '.', '~', ' ', 'é', '💶', '\ud800', 'u'),
  maxLength: 12,
});
const anyString = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 150 }));

describe('entity ids', () => {
  it.each([
    [invoiceIdFor, 'zoho-in', '1890000000043211', 'inv.zoho-in.1890000000043211'],
    [creditNoteIdFor, 'zoho-in', '1890000000043300', 'cn.zoho-in.1890000000043300'],
    [buyerIdFor, 'zoho-in', '1890000000021005', 'cust.zoho-in.1890000000021005'],
    [invoiceIdFor, 'qbo-main', '1042', 'inv.qbo-main.1042'],
    [
      invoiceIdFor,
      'xero-au',
      '0f6a2a8e-3b1d-4f0c-9c55-7e2b1d4c8a10',
      'inv.xero-au.0f6a2a8e-3b1d-4f0c-9c55-7e2b1d4c8a10',
    ],
    [invoiceIdFor, 'c', 'a:b', 'inv.c.a_3Ab'],
    [invoiceIdFor, 'c', 'a/b', 'inv.c.a_2Fb'],
    [invoiceIdFor, 'c', 'a.b', 'inv.c.a_2Eb'],
    [invoiceIdFor, 'c', 'a_b', 'inv.c.a_5Fb'],
    [invoiceIdFor, 'c', 'café', 'inv.c.caf_C3_A9'],
    [invoiceIdFor, 'conn:1', '7', 'inv.conn_3A1.7'],
  ])('given %o, connection %s and ERP id %s, then the id is %s', (fn, connection, erpId, expected) => {
    expect(fn(connection, erpId)).toBe(expected);
  });

  it('given a numeric ERP id, then it maps like its string form (Zoho sometimes sends ids as numbers)', () => {
    expect(invoiceIdFor('zoho-in', 1042)).toBe(invoiceIdFor('zoho-in', '1042'));
  });

  it('given "a:b", "a-b", "a_3Ab" and "a/b", then four different ids, none with ":" or "/"', () => {
    const ids = ['a:b', 'a-b', 'a_3Ab', 'a/b', 'a_2Fb'].map((e) => invoiceIdFor('c', e));
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(SAFE_ID);
  });

  it('given the same ERP id split differently between connection and record, then different ids', () => {
    expect(invoiceIdFor('a.b', 'c')).not.toBe(invoiceIdFor('a', 'b.c'));
    expect(invoiceIdFor('a-b', 'c')).not.toBe(invoiceIdFor('a', 'b-c'));
  });

  it('given one record, then invoice, credit note and buyer ids differ (kinds never share ids)', () => {
    expect(new Set([invoiceIdFor('c', '1'), creditNoteIdFor('c', '1'), buyerIdFor('c', '1')]).size).toBe(3);
  });

  it('given a very long ERP id, then the id is bounded, readable at the start, and ends in ~ and a hash', () => {
    const long = 'X'.repeat(500);
    const id = invoiceIdFor('zoho-in', long);
    expect(id.length).toBe(MAX_ID_LENGTH);
    expect(id).toMatch(/^inv\.zoho-in\.X+~[0-9a-f]{20}$/);
    expect(invoiceIdFor('zoho-in', `${long}Y`)).not.toBe(id);
    expect(invoiceIdFor('zoho-in', long)).toBe(id);
  });

  it('property: random ERP ids never collide after mapping, and the ids are safe and bounded', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(anyString, { minLength: 2, maxLength: 30 }),
        fc.constantFrom('zoho-in', 'x:y/z', 'q.b_o'),
        (erpIds, conn) => {
          const ids = erpIds.map((e) => invoiceIdFor(conn, e));
          expect(new Set(ids).size).toBe(erpIds.length);
          for (const id of ids) {
            expect(id).not.toMatch(/[:/]/);
            expect(id).toMatch(SAFE_ID);
            expect(id.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('property: random (connection, ERP id) pairs never collide', () => {
    fc.assert(
      fc.property(fc.tuple(nasty, nasty), fc.tuple(nasty, nasty), ([c1, e1], [c2, e2]) => {
        fc.pre(c1 !== c2 || e1 !== e2);
        expect(buyerIdFor(c1, e1)).not.toBe(buyerIdFor(c2, e2));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: the escaping is reversible, hence injective', () => {
    fc.assert(
      fc.property(anyString, (s) => {
        expect(unescapeIdPart(escapeIdPart(s))).toBe(s);
        expect(escapeIdPart(s)).toMatch(/^[A-Za-z0-9_-]*$/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('jobIdSafe', () => {
  it.each([
    [['upsert', 'inv.zoho-in.1890000000043211'], 'upsert-inv.zoho-in.1890000000043211'],
    [['pull', 'zoho:in', 'invoices'], 'pull-zoho_3Ain-invoices'],
    [['backfill', 'qbo/main', '2025-01-01', '2025-01-31'], 'backfill-qbo_2Fmain-2025-01-01-2025-01-31'],
    [['upsert', 'inv.c.a_3Ab', 3], 'upsert-inv.c.a_3Ab-3'],
    [['123'], 'id-123'],
    [[42], 'id-42'],
  ])('given parts %j, then the job id is %s', (parts, expected) => {
    expect(jobIdSafe(...parts)).toBe(expected);
  });

  it('given an id from invoiceIdFor, then it passes through unchanged', () => {
    const id = invoiceIdFor('xero-au', 'a:b/c');
    expect(jobIdSafe(id)).toBe(id);
  });

  it('property: job ids never contain ":" or "/", are never all digits, and are bounded', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyString, fc.nat()), { minLength: 1, maxLength: 6 }), (parts) => {
        const id = jobIdSafe(...parts);
        expect(id).not.toMatch(/[:/]/);
        expect(id).not.toMatch(/^\d+$/);
        expect(id.length).toBeLessThanOrEqual(MAX_JOB_ID_LENGTH);
        expect(id).toMatch(/^[A-Za-z0-9._~-]*$/);
      }),
      { numRuns: 1000 },
    );
  });
});
