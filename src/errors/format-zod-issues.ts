import type { z } from 'zod';

/** "invoice.lineItems.0.total: Invalid input: expected number, received string" — path first, never values. */
export function formatZodIssues(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
}
