import { describe, expect, it } from 'vitest';
import { readQuota } from '../../../connectors/zoho-books/rate-limit.js';
import { quotaObserver } from '../../../src/http/vendor-client.js';

describe('rate-limit headers (readQuota), as the vendor client observes them', () => {
  const observe = () => {
    const quotas: Array<[string, number]> = [];
    const parks: number[] = [];
    const fn = quotaObserver({
      vendor: 'zoho-books',
      readQuota: readQuota,
      onQuota: (w, n) => void quotas.push([w, n]),
      park: async (u) => void parks.push(u),
      now: () => 1_000_000,
    });
    return { fn, quotas, parks };
  };

  it('given remaining > 0, then the day quota is reported and nothing is parked', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '412', 'x-rate-limit-reset': '3600' });
    expect(o.quotas).toEqual([['day', 412]]);
    expect(o.parks).toEqual([]);
  });

  it('given remaining 0 with a reset beyond a minute, then the day is spent: report 0 and park until the reset', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '7200' });
    expect(o.quotas).toEqual([['day', 0]]);
    expect(o.parks).toEqual([1_000_000 + 7_200_000]);
  });

  it('given remaining 0 with a reset within a minute (a per-minute 429), then only the minute is reported and nothing is parked', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '42' });
    expect(o.quotas).toEqual([['minute', 0]]);
    expect(o.parks).toEqual([]);
  });

  it('given no headers or a limit of 0 (limits off), then nothing happens', () => {
    const o = observe();
    o.fn({});
    o.fn({ 'x-rate-limit-limit': '0', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '9000' });
    expect(o.quotas).toEqual([]);
    expect(o.parks).toEqual([]);
  });
});
