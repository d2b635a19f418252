import { describe, expect, it } from 'vitest';
import { rateLimitScope, readQuota } from '../../../connectors/xero/rate-limit.js';

describe('Xero rate-limit headers (rate-limit.ts)', () => {
  it('given the X-*Limit-Remaining headers, then the day quota and the smaller of the organisation and app minute quotas are reported', () => {
    expect(
      readQuota({ 'x-daylimit-remaining': '4990', 'x-minlimit-remaining': '57', 'x-appminlimit-remaining': '9000' }),
    ).toEqual([
      { window: 'day', remaining: 4990 },
      { window: 'minute', remaining: 57 },
    ]);
    expect(readQuota({ 'x-appminlimit-remaining': '3' })).toEqual([{ window: 'minute', remaining: 3 }]);
    expect(readQuota({ 'x-daylimit-remaining': 'n/a' })).toEqual([]);
    expect(readQuota({})).toEqual([]);
  });

  it('given X-Rate-Limit-Problem in its spellings, then day limits are day and everything else is minute', () => {
    expect([
      rateLimitScope('DayLimit'),
      rateLimitScope(['Daily']),
      rateLimitScope('concurrent'),
      rateLimitScope(undefined),
    ]).toEqual(['day', 'day', 'minute', 'minute']);
  });
});
