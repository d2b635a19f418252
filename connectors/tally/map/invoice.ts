import type { InvoiceInputDraft } from '../../../src/billing/schemas/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  finalizeInvoice,
  invoiceIdFor,
  mapFail,
  mapOk,
  type MapResult,
  nonBlank,
  sourceMeta,
  wireAmount,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { voucherStatusOf } from '../streams/read.js';
import { TallyVoucher } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { customerOfVoucher } from './party.js';
import { supplyOf } from './tax.js';
import { parseTallyDate } from './tally-values.js';
import { adjustmentsOf, amountsOf } from './totals.js';

/**
 * A Sales voucher (https://github.com/dhananjay1405/tally-database-loader, voucher fields) → billing invoice
 * input. Money: totals.ts (the entries balance; Tally's amounts win); GST: tax.ts; the buyer: party.ts.
 *
 * - Its id is the voucher's GUID; its number VOUCHERNUMBER; its date DATE (a calendar date).
 * - A cancelled voucher (ISCANCELLED Yes) keeps its number and party and loses its amounts: it maps with
 *   zero amounts and status "cancelled" (lifecycle void), never as a delete.
 * - IRN travels as irnNumber; the e-invoice acknowledgement (IRNACKNO, IRNACKDATE) in metaData.
 * - Tally's bills say what a receipt settled, not the invoice: paid amounts are not read here (0); the
 *   adjusted amount is the TDS the customer withheld on the voucher; credit notes are synced with the
 *   invoices they settle (appliedToInvoices).
 */
export function toInvoice(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const v = parseRecord(s, TallyVoucher, record.raw, 'voucher', 'Tally');
    const lookups = readLookups(ctx.lookups);
    const status = voucherStatusOf(v);
    const currency = currencyOf();
    const a = amountsOf(s, v, lookups, 1, currency);
    const exchangeRate = exchangeRateOf(s, currency, ctx);
    const number = nonBlank(v.VOUCHERNUMBER);
    if (!number) s.fail(mapFail('MISSING_FIELD', 'VOUCHERNUMBER is missing', { field: 'VOUCHERNUMBER' }));
    const date = s.take(parseTallyDate(v.DATE, 'DATE'));
    const ackDate = s.take(parseTallyDate(v.IRNACKDATE, 'IRNACKDATE'));
    const customer = customerOfVoucher(ctx.connectionId, v);
    const adjustments = adjustmentsOf(s, a);
    const draft: InvoiceInputDraft = {
      invoiceId: invoiceIdFor(ctx.connectionId, v.GUID),
      invoiceNumber: number!,
      ...(date ? { invoiceDate: { date } } : {}),
      invoiceSubtotal: wireAmount(s, a.subtotal, currency, 'ALLINVENTORYENTRIES.LIST'),
      invoiceTax: a.tax,
      // TDS the customer withheld is settled, not cash (totals.ts): outstanding = the party's entry.
      invoiceAdjustedAmount: wireAmount(s, a.tds, currency, 'TDS'),
      invoicePaidAmount: 0,
      invoiceTotal: wireAmount(s, a.total, currency, 'PARTYLEDGERNAME'),
      ...(nonBlank(v.PARTYLEDGERNAME) ? { customerName: nonBlank(v.PARTYLEDGERNAME)! } : {}),
      ...(customer ? { customerDetails: customer } : {}),
      ...supplyOf(s, v.PLACEOFSUPPLY),
      invoiceCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      ...(nonBlank(v.REFERENCE) ? { referenceText: nonBlank(v.REFERENCE)! } : {}),
      ...(nonBlank(v.IRN) ? { irnNumber: nonBlank(v.IRN)! } : {}),
      ...(adjustments.length > 0 ? { createInvoiceAdjustments: adjustments } : {}),
      erpId: v.GUID,
      invoiceOriginSource: ctx.originSource,
      metaData: sourceMeta({
        system: 'tally',
        status,
        version: record.version,
        alterId: Number(v.ALTERID),
        voucherType: nonBlank(v.VOUCHERTYPENAME),
        irnAckNo: nonBlank(v.IRNACKNO),
        irnAckDate: ackDate,
        narration: nonBlank(v.NARRATION),
      }),
    };
    const result = finalizeInvoice(draft, [...new Set(s.warnings)]);
    return result.ok ? mapOk<BillingBody>({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
  });
}
