import type { CreditNoteApplication, CreditNoteInputDraft } from '../../../src/billing/schemas/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  creditNoteIdFor,
  finalizeCreditNote,
  mapFail,
  mapOk,
  type MapResult,
  nonBlank,
  sourceMeta,
  wireAmount,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord, type Steps } from '../../../src/mapping/steps.js';
import { TallyVoucher } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { voucherStatusOf } from '../streams/read.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { customerOfVoucher } from './party.js';
import { supplyOf } from './tax.js';
import { parseTallyAmount, parseTallyDate } from './tally-values.js';
import { amountsOf, ledgerEntriesOf } from './totals.js';

/**
 * A Credit Note voucher (https://github.com/dhananjay1405/tally-database-loader, voucher fields) → billing
 * credit note input, amounts as an invoice's (totals.ts) with the signs turned. The invoices it settles
 * are the party entry's bill allocations of type "Agst Ref": NAME is the invoice's bill (its voucher
 * number), AMOUNT what this note takes off it; "New Ref" and "On Account" leave the credit open.
 */
export function toCreditNote(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const v = parseRecord(s, TallyVoucher, record.raw, 'voucher', 'Tally');
    const lookups = readLookups(ctx.lookups);
    const status = voucherStatusOf(v);
    const currency = currencyOf();
    const a = amountsOf(s, v, lookups, -1, currency);
    const exchangeRate = exchangeRateOf(s, currency, ctx);
    const number = nonBlank(v.VOUCHERNUMBER);
    if (!number) s.fail(mapFail('MISSING_FIELD', 'VOUCHERNUMBER is missing', { field: 'VOUCHERNUMBER' }));
    const date = s.take(parseTallyDate(v.DATE, 'DATE'));
    const customer = customerOfVoucher(ctx.connectionId, v);
    const applied = applicationsOf(s, v, currency);
    const appliedTotal = applied.reduce((sum, x) => sum + x.amount, 0);
    const draft: CreditNoteInputDraft = {
      creditNoteId: creditNoteIdFor(ctx.connectionId, v.GUID),
      creditNoteNumber: number!,
      ...(date ? { creditNoteDate: { date } } : {}),
      creditNoteSubtotal: wireAmount(s, a.subtotal, currency, 'ALLINVENTORYENTRIES.LIST'),
      creditNoteTax: a.tax,
      creditNoteTotal: wireAmount(s, a.total, currency, 'PARTYLEDGERNAME'),
      creditNoteRemainingAmount: wireAmount(s, a.total.minus(appliedTotal), currency, 'BILLALLOCATIONS.LIST'),
      creditNoteCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      ...(nonBlank(v.PARTYLEDGERNAME) ? { customerName: nonBlank(v.PARTYLEDGERNAME)! } : {}),
      ...(customer ? { customerDetails: customer } : {}),
      ...(applied.length ? { appliedToInvoices: applied } : {}),
      ...(supplyOf(s, v.PLACEOFSUPPLY).placeOfSupply
        ? { placeOfSupply: supplyOf(s, v.PLACEOFSUPPLY).placeOfSupply! }
        : {}),
      ...(nonBlank(v.NARRATION) ? { reason: nonBlank(v.NARRATION)! } : {}),
      erpId: v.GUID,
      creditNoteOriginSource: ctx.originSource,
      metaData: sourceMeta({
        system: 'tally',
        status,
        version: record.version,
        alterId: Number(v.ALTERID),
        voucherType: nonBlank(v.VOUCHERTYPENAME),
        reference: nonBlank(v.REFERENCE),
        irn: nonBlank(v.IRN),
      }),
    };
    const result = finalizeCreditNote(draft, [...new Set(s.warnings)]);
    return result.ok ? mapOk<BillingBody>({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
  });
}

/** The party entry's "Agst Ref" bills: the invoices (by number) this note settles, and how much of each. */
function applicationsOf(s: Steps, v: TallyVoucher, currency: string): CreditNoteApplication[] {
  const party = ledgerEntriesOf(v).find(
    (e) => (e.LEDGERNAME ?? '').trim().toLowerCase() === (v.PARTYLEDGERNAME ?? '').trim().toLowerCase(),
  );
  const out: CreditNoteApplication[] = [];
  for (const [i, b] of (party?.['BILLALLOCATIONS.LIST'] ?? []).entries()) {
    if ((b.BILLTYPE ?? '').trim().toLowerCase() !== 'agst ref') continue;
    const name = nonBlank(b.NAME);
    const field = `BILLALLOCATIONS.LIST.${i}`;
    if (!name) s.fail(mapFail('MISSING_FIELD', `${field}.NAME is missing: the settled invoice is unknown`, { field }));
    // The party is credited on a credit note: a positive allocation is credit given against the bill.
    const amount = s.take(parseTallyAmount(b.AMOUNT, `${field}.AMOUNT`));
    out.push({ invoiceNumber: name!, amount: wireAmount(s, amount.abs(), currency, `${field}.AMOUNT`) });
  }
  return out;
}
