import { z } from 'zod';
import { connectionBudget } from '../jobs/admission/connection-budget.js';
import { CHANGE_TO_BILLING_SLOW_P99_SECONDS } from '../src/observability/change-to-billing-slow.js';
import { QUARANTINE_BUCKET_HOURS } from '../src/pipeline/trend-buckets.js';
import type { Runtime } from '../jobs/runtime.js';
import { routesOn } from './route.js';
import { ConnectionId, IsoInstant } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type TrendRouteDeps = Pick<Runtime, 'trends' | 'connection'>;

const defineRoute = routesOn<TrendRouteDeps>();

const Series = z.array(z.number().nullable());

const ConnectionTrends = z
  .object({
    id: z.string(),
    hours: z.array(IsoInstant).describe('the start of each of the last 24 hours, oldest first, the current one last'),
    calls: z.object({
      peakMinute: Series.describe('the most vendor calls in one minute during each hour'),
      day: Series.describe("vendor calls in the 24 h before the hour's last sample"),
      limits: z.object({
        perMinute: z.number(),
        perDay: z.number().nullable().describe('null: no day cap (and no day count is kept)'),
      }),
    }),
    freshness: z.object({
      p99Seconds: Series.describe("change → billing p99 of the hour before the hour's last sample"),
      alertAboveSeconds: z.number(),
    }),
    quarantine: z.object({
      bucketHours: z.number().int(),
      at: z.array(IsoInstant).describe('the start of each bucket of the last 7 days, oldest first'),
      records: Series.describe("records in quarantine at the bucket's last sample"),
    }),
  })
  .meta({ id: 'ConnectionTrends' });

export const trendRoutes = [
  defineRoute({
    method: 'get',
    path: '/trends',
    summary:
      'Trend series of each connection the token sees (or one): vendor calls against the quota and freshness p99 over 24 h, the quarantine over 7 days',
    description:
      'Sampled by the scheduled sweep (every sync.sweepEverySeconds) into one small hash per connection; null where no sample fell in a bucket.',
    role: 'viewer',
    query: z.object({ connection: ConnectionId.optional() }),
    response: z.object({ connections: z.array(ConnectionTrends) }),
    handle: async (ctx, { query }) => {
      const ids = query.connection ? [ctx.connection(query.connection).id] : ctx.visibleConnections().map((c) => c.id);
      const now = Date.now();
      const connections = [];
      for (const id of ids) {
        const s = await ctx.rt.trends.read(id, now);
        const budget = connectionBudget(ctx.rt.connection(id));
        connections.push({
          id,
          hours: s.hours,
          calls: {
            peakMinute: s.callsPeakMinute,
            day: s.callsDay,
            // No day cap (0 or unset): the quota keeps no day count either, so the day series stays 0.
            limits: { perMinute: budget.perMinute, perDay: budget.perDay ? budget.perDay : null },
          },
          freshness: { p99Seconds: s.freshnessP99Seconds, alertAboveSeconds: CHANGE_TO_BILLING_SLOW_P99_SECONDS },
          quarantine: { bucketHours: QUARANTINE_BUCKET_HOURS, at: s.quarantineAt, records: s.quarantine },
        });
      }
      return { body: { connections } };
    },
  }),
];
