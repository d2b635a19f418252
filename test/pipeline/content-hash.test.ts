import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../src/pipeline/content-hash.js';

/** A mapped invoice body with what canonical JSON must handle: nesting, undefined, nulls, integer-like keys, escapes, non-ASCII. */
const body = {
  kind: 'invoice',
  invoice: {
    invoiceId: 'inv.zoho-in.1890000000043211',
    invoiceNumber: 'INV-000042',
    invoiceDate: { date: '2026-11-01' },
    invoiceSubtotal: 1000.5,
    invoiceTax: { total: 180.09, gstTax: { cgst: 90.045, cgstRate: 9, sgst: 90.045, sgstRate: 9 } },
    invoiceTotal: 1180.59,
    invoiceCurrency: 'INR',
    customerDetails: { buyerId: 'cust.zoho-in.1890000000000123', name: 'Bowman & Co "Pvt" Ltd', email: undefined },
    lineItems: [
      { name: 'Hard Drive', quantity: 2, rate: 500.25, tags: ['a', null, undefined] },
      { name: 'Ünïcode ₹', quantity: 1, rate: 0 },
    ],
    metaData: { '10': 'ten', '2': 'two', b: true, a: null },
  },
};

describe('content hash', () => {
  it('given a body hashed by earlier releases, then its canonical JSON and hash are exactly those stored in their ledgers', () => {
    // Produced by the first implementation (Object.entries, filter, sort by `<`, map, join); a change here
    // would make every record of every ledger look changed and be written to billing again.
    expect(canonicalJson(body)).toBe(
      '{"invoice":{"customerDetails":{"buyerId":"cust.zoho-in.1890000000000123","name":"Bowman & Co \\"Pvt\\" Ltd"},"invoiceCurrency":"INR","invoiceDate":{"date":"2026-11-01"},"invoiceId":"inv.zoho-in.1890000000043211","invoiceNumber":"INV-000042","invoiceSubtotal":1000.5,"invoiceTax":{"gstTax":{"cgst":90.045,"cgstRate":9,"sgst":90.045,"sgstRate":9},"total":180.09},"invoiceTotal":1180.59,"lineItems":[{"name":"Hard Drive","quantity":2,"rate":500.25,"tags":["a",null,null]},{"name":"Ünïcode ₹","quantity":1,"rate":0}],"metaData":{"10":"ten","2":"two","a":null,"b":true}},"kind":"invoice"}',
    );
    expect(contentHash(body)).toBe('85d8bf6f6080ab78a4586694ce133ccc5dbe96d6dd702d4d64486619a1a245ce');
  });

  it('given values at the top level and empty containers, then they print as JSON does', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson([undefined, { b: 1, a: [2] }])).toBe('[null,{"a":[2],"b":1}]');
    for (const n of [0, -0, 1e21, 1e-7, 0.1 + 0.2, -1.5, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity])
      expect(canonicalJson(n)).toBe(JSON.stringify(n));
    expect(canonicalJson({ 'a"b': 1, 'ü\n': 2 })).toBe(JSON.stringify({ 'a"b': 1, 'ü\n': 2 }));
    const sparse = [1, 2, 3];
    delete sparse[1];
    expect(canonicalJson(sparse)).toBe('[1,,3]');
  });

  it('given the same content with keys in another order, then the hash is equal', () => {
    expect(contentHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(contentHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  it('given an undefined field, then it hashes like an absent one', () => {
    expect(contentHash({ a: 1, b: undefined })).toBe(contentHash({ a: 1 }));
  });

  it('given a changed amount, then the hash differs', () => {
    expect(contentHash({ total: 118.0 })).not.toBe(contentHash({ total: 118.01 }));
  });
});
