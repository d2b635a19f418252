import type { z } from 'zod';
import { formatZodIssues } from '../../../src/errors/index.js';
import { mapFail, mapOk, type MapResult } from '../../../src/mapping/index.js';

/** A raw record through its vendor schema; a misfit is INVALID_FIELD with the zod paths (never values). */
export function parseRecord<S extends z.ZodTypeAny>(schema: S, raw: unknown, label: string): MapResult<z.output<S>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return mapOk(parsed.data);
  const issues = formatZodIssues(parsed.error, label);
  return mapFail('INVALID_FIELD', `${label} does not have the QuickBooks shape: ${issues.slice(0, 5).join('; ')}`, {
    issues,
    field: parsed.error.issues[0]?.path.map(String).join('.') || undefined,
  });
}
