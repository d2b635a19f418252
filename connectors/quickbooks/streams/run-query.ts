import type { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import { entityRows, qboQueryResponse } from '../schemas.js';

/**
 * One query call: `GET /v3/company/{realmId}/query?query=<statement>&minorversion=75` [Q4]. Returns the
 * entity's rows ([] for the empty `QueryResponse: {}`) and the response `time`.
 * https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
 */
export async function runQuery<T extends z.ZodTypeAny>(
  ctx: Pick<ReadContext, 'http' | 'signal'>,
  entity: string,
  statement: string,
  item: T,
): Promise<{ rows: z.output<T>[]; time?: string; totalCount?: number }> {
  // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
  const response = await ctx.http.request({
    path: 'query',
    endpoint: `GET /query ${entity}`,
    query: { query: statement },
    schema: qboQueryResponse(entity, item),
    signal: ctx.signal,
  });
  const totalCount = response.QueryResponse.totalCount;
  return {
    rows: entityRows<z.output<T>>(response, entity),
    ...(response.time === undefined ? {} : { time: response.time }),
    ...(typeof totalCount === 'number' ? { totalCount } : {}),
  };
}
