import { describe, expect, it } from 'vitest';
import { readQuota } from '../../../connectors/quickbooks/rate-limit.js';

describe('QuickBooks rate-limit headers (rate-limit.ts)', () => {
  it('given any response headers, then no quota signal: Intuit sends no rate-limit headers, so only a 429 (error table) says anything', () => {
    expect(readQuota({})).toEqual([]);
    expect(readQuota({ intuit_tid: 'tid-1', 'x-ratelimit-remaining': '0' })).toEqual([]);
  });
});
