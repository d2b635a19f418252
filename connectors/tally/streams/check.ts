import type { ReadContext, VendorCheck } from '../../../src/connector/types.js';
import { tallyClientOf } from '../client.js';
import type { Settings } from '../settings.js';
import { tdlString } from './envelope.js';
import { fetchLookups, type TallyLookups } from './lookups.js';
import { taxKindOf } from '../map/tax.js';

/** The voucher types the streams read, by name (README.md, "Streams"). */
const VOUCHER_TYPES = ['Sales', 'Credit Note'] as const;

/**
 * What `erp-sync check` asks of a Tally connection besides its reads: TallyPrime takes no credentials, so
 * there is no token to refresh; instead the company is loaded, its voucher types are there, and its
 * tax ledgers say which GST tax they are at what rate (the mapper reads GST from them;
 * https://help.tallysolutions.com/integration-with-tallyprime/, tally-database-loader's ledger fields).
 * A failed request is left to throw: the caller reports it with the connector's error class.
 */
export async function checkTally(ctx: ReadContext<Settings>): Promise<VendorCheck[]> {
  const lookups = await fetchLookups({ ...ctx, settings: { ...ctx.settings, lookupsCacheSeconds: 0 } });
  return [companyCheck(lookups), await voucherTypesCheck(ctx), taxLedgersCheck(lookups)];
}

function companyCheck({ company }: TallyLookups): VendorCheck {
  const where = [company.stateName, company.gstin && `GSTIN ${company.gstin}`].filter(Boolean).join(', ');
  return { check: 'company', status: 'ok', detail: `"${company.name}" loaded${where ? ` (${where})` : ''}` };
}

/** The Sales and Credit Note voucher types (a custom type under Sales is not read: README.md, "Limitations"). */
async function voucherTypesCheck(ctx: ReadContext<Settings>): Promise<VendorCheck> {
  const rows = await tallyClientOf(ctx.http).exportCollection(
    {
      id: 'ErpSyncVoucherTypes',
      type: 'VoucherType',
      company: ctx.settings.company,
      fetch: ['NAME', 'PARENT'],
      filters: [VOUCHER_TYPES.map((t) => `$Name = ${tdlString(t)}`).join(' OR ')],
    },
    ['VOUCHERTYPE'],
    ctx.signal,
  );
  const found = new Set(rows.map((r) => String(r.NAME ?? '').trim()));
  const missing = VOUCHER_TYPES.filter((t) => !found.has(t));
  if (!missing.length) return { check: 'voucher types', status: 'ok', detail: VOUCHER_TYPES.join(', ') };
  return {
    check: 'voucher types',
    status: 'failed',
    detail: `the company has no voucher type ${missing.map((t) => `"${t}"`).join(', ')}: its vouchers cannot be read`,
    fix: `in TallyPrime, activate the voucher type (Alter > Voucher Type) or check settings.company names the right company`,
  };
}

/** The ledgers under Duties & Taxes: GST duty heads, each with its rate (a tax entry's rate comes from its master). */
function taxLedgersCheck(lookups: TallyLookups): VendorCheck {
  const names = Object.keys(lookups.taxLedgers);
  const gst = names.filter((n) => {
    const kind = taxKindOf(n, lookups)?.kind;
    return kind !== undefined && kind !== 'tds';
  });
  const noRate = gst.filter((n) => !taxKindOf(n, lookups)?.rate);
  if (gst.length === 0)
    return {
      check: 'tax ledgers',
      status: 'failed',
      detail: `no ledger under Duties & Taxes has a GST duty head (${names.length} ledger(s) there): taxed vouchers cannot be mapped`,
      fix: 'in TallyPrime, set the GST details (type of duty: GST, tax type Central/State/Integrated Tax) on the tax ledgers',
    };
  if (noRate.length)
    return {
      check: 'tax ledgers',
      status: 'failed',
      detail: `GST ledger(s) without a rate: ${noRate.join(', ')}`,
      fix: 'in TallyPrime, set the percentage of calculation on each GST ledger',
    };
  const tds = names.length - gst.length;
  return {
    check: 'tax ledgers',
    status: 'ok',
    detail: `${gst.length} GST ledger(s) with rates${tds ? `, ${tds} other` : ''}`,
  };
}
