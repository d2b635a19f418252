import { z } from 'zod';

/**
 * What the mappers need from the organisation, fetched once per read (streams/lookups.ts) and carried in
 * MapContext.lookups as plain JSON:
 * - `baseCurrency`: GET /Organisation `BaseCurrency`: Xero's CurrencyRate is relative to it;
 * - `taxRates`: GET /TaxRates by TaxType: name, effective rate and components (to split CGST/SGST).
 * Rates travel as strings so the decimals stay exact.
 */
export const XeroLookups = z.object({
  baseCurrency: z.string().optional(),
  organisationName: z.string().optional(),
  taxRates: z
    .record(
      z.string(),
      z.object({
        name: z.string(),
        rate: z.string(),
        components: z.array(z.object({ name: z.string(), rate: z.string(), compound: z.boolean() })),
      }),
    )
    .default({}),
});
export type XeroLookups = z.infer<typeof XeroLookups>;
export type XeroTaxRateInfo = XeroLookups['taxRates'][string];

/** Reads the lookups back; anything unreadable counts as absent (the mapper then says what is missing). */
export function xeroLookupsOf(lookups: Record<string, unknown>): XeroLookups {
  const parsed = XeroLookups.safeParse(lookups);
  return parsed.success ? parsed.data : { taxRates: {} };
}
