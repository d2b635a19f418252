import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { InvoiceInputDraft } from '../../../src/billing/schemas/index.js';
import { checkPaidWithinTotal, finalizeInvoice, invoiceIdFor, mapFail, mapOk, type MapResult, parseOptionalAmount } from '../../../src/mapping/index.js';
import { QboInvoice } from '../schemas.js';
import { creditsApplied } from './credits-applied.js';
import { parseRecord } from './parse-record.js';
import { mapSalesDocument } from './sales-document.js';
import { invoiceStatus } from './status.js';

/**
 * QBO Invoice → billing invoice body (pure; never throws for bad data).
 * - invoiceId = invoiceIdFor(connection, Id), erpId = Id, invoiceNumber = DocNumber (QBO may have
 *   auto-numbering off: then the Id, with a warning, since billing needs a number).
 * - invoicePaidAmount = TotalAmt − Balance − credits applied by credit memos we can attribute
 *   (credits-applied.ts); those credits go to invoiceAdjustedAmount, so billing's outstanding
 *   (total − paid − adjusted) equals QBO's Balance.
 * - metaData.sourceStatus: voided | paid | partially_paid | open (status.ts); a void is a status.
 */
export function mapInvoice(record: SourceRecord<unknown>, ctx: MapContext): MapResult<BillingBody> {
  if (record.deleted) return mapFail('UNSUPPORTED', `invoice ${record.id} was deleted in QuickBooks; deletes are not mapped`);
  const parsed = parseRecord(QboInvoice, record.raw, 'Invoice');
  if (!parsed.ok) return parsed;
  const inv = parsed.value;
  const doc = mapSalesDocument(inv, ctx, 'Invoice');
  if (!doc.ok) return doc;
  const p = doc.value;
  const warnings = [...p.warnings];

  const balanceRaw = parseOptionalAmount(inv.Balance, 'Balance');
  if (!balanceRaw.ok) return balanceRaw;
  if (balanceRaw.value === undefined) warnings.push('Balance missing: taken as unpaid');
  const balance = balanceRaw.value ?? p.total;
  const credits = creditsApplied(inv);
  warnings.push(...credits.warnings);
  const settled = p.total.minus(balance);
  const paid = settled.minus(credits.amount);
  const bad =
    checkPaidWithinTotal({ paid: settled, total: p.total, currency: p.currency }) ?? checkPaidWithinTotal({ paid, total: p.total, currency: p.currency });
  if (bad) return bad;

  const number = inv.DocNumber?.trim();
  if (!number) warnings.push(`invoice ${inv.Id} has no DocNumber; its Id is used as the number`);
  const status = invoiceStatus(p.total, balance, inv.PrivateNote);
  const { wire } = p;
  const draft: InvoiceInputDraft = {
    invoiceId: invoiceIdFor(ctx.connectionId, inv.Id),
    erpId: inv.Id,
    invoiceNumber: number || inv.Id,
    ...(p.txnDate ? { invoiceDate: { date: p.txnDate } } : {}),
    ...(p.dueDate ? { invoiceDueDate: { date: p.dueDate } } : {}),
    invoiceSubtotal: wire.num(p.subtotal, 'invoiceSubtotal'),
    ...(p.tax ? { invoiceTax: p.tax } : {}),
    ...(p.discount ? { discount: p.discount } : {}),
    invoiceTotal: wire.num(p.total, 'invoiceTotal'),
    invoicePaidAmount: wire.num(paid, 'invoicePaidAmount'),
    invoiceAdjustedAmount: wire.num(credits.amount, 'invoiceAdjustedAmount'),
    invoiceCurrency: p.currency,
    ...(p.exchangeRate === undefined ? {} : { exchangeRate: p.exchangeRate }),
    lineItems: p.lineItems,
    customerDetails: p.customerDetails,
    ...(p.customerDetails.name ? { customerName: p.customerDetails.name } : {}),
    ...(p.placeOfSupply ? { placeOfSupply: p.placeOfSupply } : {}),
    invoiceOriginSource: ctx.originSource,
    metaData: {
      sourceSystem: 'quickbooks',
      sourceStatus: status,
      sourceVersion: p.version,
      ...(inv.SyncToken === undefined ? {} : { syncToken: inv.SyncToken }),
      ...(number ? { erpNumber: number } : {}),
    },
  };
  if (wire.failure) return wire.failure;
  const result = finalizeInvoice(draft, warnings);
  return result.ok ? mapOk({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
}
