import { z } from 'zod';

/** A JSON number that is a real amount (no NaN/Infinity). Money is computed in decimal before it gets here. */
export const Num = z.number().finite();

/** Calendar date, YYYY-MM-DD, validated as a real date. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'expected a real calendar date');

/** Timestamp as the listing prints it: YYYY-MM-DD HH:MM:SS (UTC). */
export const ServiceTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'expected YYYY-MM-DD HH:MM:SS');

/**
 * Our decision (interface silent): the generic date objects of the invoice input
 * (invoiceDate, invoiceDueDate, promiseToPayDate) are `{ "date": "YYYY-MM-DD" }`.
 */
export const DateObject = z.strictObject({ date: IsoDate });
export type DateObject = z.infer<typeof DateObject>;

/**
 * Our decision (interface silent): tags and metaData are flat objects of string, number or boolean values.
 */
export const FlatObject = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type FlatObject = z.infer<typeof FlatObject>;
