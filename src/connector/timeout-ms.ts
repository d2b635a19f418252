import { z } from 'zod';

/**
 * The `timeoutMs` setting of every connector: the whole-request timeout of each vendor call, API and token
 * endpoint alike, in ms. One bound for all: at least 1 s (below it a slow but healthy vendor answer is
 * cut off and retried for nothing), at most 120 s (QuickBooks gives up on a request after 120 s:
 * https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles; waiting longer for any
 * vendor only holds a quota slot). @defaultValue 30000
 */
export const TimeoutMs = z.number().int().min(1_000).max(120_000).default(30_000);
