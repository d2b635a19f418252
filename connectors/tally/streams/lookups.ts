import { z } from 'zod';
import { cachedLookups } from '../../../src/connector/lookups-cache.js';
import { requireLookups } from '../../../src/connector/read-lookups.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { tallyClientOf } from '../client.js';
import type { Settings } from '../settings.js';
import { TransientError } from '../../../src/errors/index.js';
import { inboxOf } from './agent-source.js';
import { tdlString } from './envelope.js';

/**
 * What the Tally mappers need besides the voucher, read by every stream's `lookups()` (2 requests, cached
 * per connection for settings.lookupsCacheSeconds) and handed over as plain JSON:
 * - `company`: its name, state (the supplier's state, for intra- or inter-state GST) and GSTIN;
 * - `taxLedgers`: the ledgers under "Duties & Taxes" by name, with their GST duty head ("Central Tax",
 *   "State Tax", "Integrated Tax", "Cess") or TDS type, and rate: a voucher's ledger entries name them,
 *   and only the ledger master says which tax a ledger is and at what rate
 *   (tally-database-loader's ledger fields, https://github.com/dhananjay1405/tally-database-loader).
 * Rates travel as strings so the decimals stay exact.
 */
export const TallyLookups = z.object({
  company: z.object({ name: z.string(), stateName: z.string().optional(), gstin: z.string().optional() }),
  taxLedgers: z.record(z.string(), z.object({ dutyHead: z.string().optional(), rate: z.string().optional() })),
});
export type TallyLookups = z.infer<typeof TallyLookups>;

/** MapContext.lookups checked as TallyLookups inside a mapper's `mapping()` body (src/connector/read-lookups.ts). */
export function readLookups(lookups: unknown): TallyLookups {
  return requireLookups(TallyLookups, lookups, 'Tally', 'company, tax ledgers');
}

export function fetchLookups(ctx: ReadContext<Settings>): Promise<TallyLookups> {
  if (ctx.settings.mode === 'agent') return agentLookups(ctx);
  return cachedLookups(ctx, `tally-lookups|${ctx.settings.company}`, ctx.settings.lookupsCacheSeconds, () =>
    readFromTally(ctx),
  );
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The company and its tax ledgers, read from TallyPrime (the worker in direct mode, the agent in agent mode). */
export async function readFromTally(ctx: ReadContext<Settings>): Promise<TallyLookups> {
  const client = tallyClientOf(ctx.http);
  // https://help.tallysolutions.com/integration-with-tallyprime/ (an export of the Company collection)
  const [company] = await client.exportCollection(
    {
      id: 'ErpSyncCompanyInfo',
      type: 'Company',
      company: ctx.settings.company,
      fetch: ['NAME', 'STATENAME', 'GSTIN'],
      filters: [`$Name = ${tdlString(ctx.settings.company)}`],
    },
    ['COMPANY'],
    ctx.signal,
  );
  // The tax ledgers: an export of the Ledger collection, the group "Duties & Taxes".
  const ledgers = await client.exportCollection(
    {
      id: 'ErpSyncTaxLedgers',
      type: 'Ledger',
      company: ctx.settings.company,
      fetch: ['NAME', 'PARENT', 'GSTDUTYHEAD', 'TAXTYPE', 'RATEOFTAXCALCULATION'],
      filters: ['$Parent = "Duties & Taxes"'],
    },
    ['LEDGER'],
    ctx.signal,
  );
  const taxLedgers: TallyLookups['taxLedgers'] = {};
  for (const l of ledgers) {
    const name = text(l.NAME);
    if (!name) continue;
    const dutyHead = text(l.GSTDUTYHEAD) ?? text(l.TAXTYPE);
    const rate = text(l.RATEOFTAXCALCULATION);
    taxLedgers[name] = { ...(dutyHead ? { dutyHead } : {}), ...(rate ? { rate } : {}) };
  }
  const stateName = text(company?.STATENAME);
  const gstin = text(company?.GSTIN);
  return {
    company: { name: ctx.settings.company, ...(stateName ? { stateName } : {}), ...(gstin ? { gstin } : {}) },
    taxLedgers,
  };
}

/** Agent mode: the company and tax ledgers as the agent last read them from Tally (sent with its batches). */
async function agentLookups(ctx: ReadContext<Settings>): Promise<TallyLookups> {
  const sent = await inboxOf(ctx).lookups();
  if (sent === undefined)
    throw new TransientError(
      `tally connection ${ctx.connectionId}: the agent has not sent the company's settings yet (is erp-sync tally-agent running?)`,
      { source: 'tally', operation: 'lookups (agent mode)' },
    );
  return TallyLookups.parse(sent);
}
