import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/connector/id-set.js';

describe('IdSet', () => {
  it('given Zoho-style decimal ids, then each is a member once added and not before', () => {
    const ids = new IdSet();
    expect(ids.has('460000000026049')).toBe(false);
    ids.add('460000000026049').add('460000000026049').add('460000000026050');
    expect(ids.has('460000000026049')).toBe(true);
    expect(ids.has('460000000026050')).toBe(true);
    expect(ids.has('460000000026051')).toBe(false);
    expect(ids.size).toBe(2);
  });

  it('given ids that are not canonical decimals below 2^64 − 1, then they are kept as strings, exactly', () => {
    const ids = new IdSet();
    const odd = [
      '007',
      '-7',
      '+7',
      '7.0',
      '',
      'INV-7',
      'b2a8e1b4-5c1d-4d3e-9f00-000000000007',
      '18446744073709551615',
      '123456789012345678901',
    ];
    for (const id of odd) ids.add(id);
    for (const id of odd) expect(ids.has(id), id).toBe(true);
    // "007" and "7" are different ids; so are 2^64 − 1 (a string) and 2^64 − 2 (an integer).
    expect(ids.has('7')).toBe(false);
    expect(ids.has('18446744073709551614')).toBe(false);
    ids.add('0').add('18446744073709551614');
    expect(ids.has('0') && ids.has('18446744073709551614')).toBe(true);
    expect(ids.size).toBe(odd.length + 2);
  });

  it('given 200,000 ids added while the table grows, then it answers exactly as a Set of strings does', () => {
    const ids = new IdSet();
    const reference = new Set<string>();
    let x = 1_234_567;
    const next = () => {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      return x;
    };
    for (let i = 0; i < 200_000; i++) {
      // Dense runs (consecutive ids, as an ERP allots them), scattered ones, and a few non-numeric.
      const id =
        i % 3 === 0
          ? `4600000000${String(260_000 + i)}`
          : i % 97 === 0
            ? `X-${next()}`
            : String(next() * 1000 + (i % 7));
      ids.add(id);
      reference.add(id);
    }
    expect(ids.size).toBe(reference.size);
    for (const id of reference) expect(ids.has(id)).toBe(true);
    let absent = 0;
    for (let i = 0; i < 50_000; i++) {
      const probe = String(next() * 1000 + 8);
      expect(ids.has(probe)).toBe(reference.has(probe));
      if (!reference.has(probe)) absent++;
    }
    expect(absent).toBeGreaterThan(49_000);
  });

  it('given ids just inside and just outside 2^32 − 1 above the first one, and below it, then each is kept exactly once', () => {
    const ids = new IdSet();
    const first = 460_000_000_026_049n;
    const around = [
      first,
      first + 2n ** 32n - 2n,
      first + 2n ** 32n - 1n,
      first + 2n ** 32n,
      first - 1n,
      0n,
      2n ** 64n - 2n,
    ].map(String);
    for (const id of around) ids.add(id).add(id);
    expect(ids.size).toBe(around.length);
    for (const id of around) expect(ids.has(id), id).toBe(true);
    for (const id of [first + 1n, first + 2n ** 32n - 3n, first + 2n ** 32n + 1n, first - 2n, 1n].map(String))
      expect(ids.has(id), id).toBe(false);
  });

  it('given 1,000,000 ids of one organisation (a counter with gaps), then the table holds them in 8 MiB', () => {
    const ids = new IdSet();
    for (let i = 0; i < 1_000_000; i++) ids.add(String(460_000_000_000_000 + i * 7));
    expect(ids.size).toBe(1_000_000);
    expect(ids.tableBytes).toBeLessThanOrEqual(8 * 2 ** 20);
  });
});
