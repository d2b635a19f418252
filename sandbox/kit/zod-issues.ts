import type { z } from 'zod';

/** "invoice.lineItems.0.total: Invalid input: expected number, received string": path first, never values. */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
}
