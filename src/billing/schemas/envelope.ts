import { z } from 'zod';

/** The upsert-style and create-customer endpoints answer with an empty JSON object. */
export const EmptyObject = z.strictObject({});

/** Most responses: { error, message, data }. */
export function envelopeOf<T extends z.ZodTypeAny>(data: T) {
  return z.looseObject({ error: z.string().nullish(), message: z.string().nullish(), data });
}

/** The error envelope, our decision for failures: { error, message }. */
export const ErrorEnvelope = z.looseObject({ error: z.string(), message: z.string() });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The paginated container, the value of `data` for list endpoints. */
export function paginatedOf<T extends z.ZodTypeAny>(doc: T) {
  return z.looseObject({
    totalDocs: z.number().int().nonnegative(),
    docs: z.array(doc),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
    pageNumber: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    totalPages: z.number().int().nonnegative(),
    prevPageNumber: z.number().int().nullable(),
    nextPageNumber: z.number().int().nullable(),
  });
}
export interface Paginated<T> {
  totalDocs: number;
  docs: T[];
  hasNext: boolean;
  hasPrev: boolean;
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  prevPageNumber: number | null;
  nextPageNumber: number | null;
}
