import type { z } from 'zod';
import { searchParamsToObject } from '../../src/billing/schemas/query-string.js';
import { formatZodIssues } from '../kit/zod-issues.js';
import { badRequest } from './errors.js';

/** Validates a JSON body with a schema (defaults applied); 400 naming each offending field otherwise. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (!r.success) throw badRequest(formatZodIssues(r.error).join('; '));
  return r.data;
}

/** Validates a query string with a query schema (repeatable parameters become lists); 400 otherwise. */
export function parseQuery<T extends z.ZodType>(schema: T, query: URLSearchParams): z.infer<T> {
  return parseBody(schema, searchParamsToObject(schema, query));
}
