import type { ReadContext } from '../../../src/connector/types.js';
import { type QboDoc, readByIds } from './read.js';

/**
 * What a page's documents refer to, read by id and attached before mapping (this connector only: QBO
 * documents name their customer and credit memos by reference, where the other vendors' details embed
 * what the mappers need). `_`-prefixed keys are ours (QBO never uses them).
 */

/**
 * Attaches each document's customer (CustomerRef) as `_customer`: GSTIN, PAN, registration type,
 * addresses and contacts live on the Customer, not on the document. `Active IN (true, false)` so
 * inactive customers are found too. `_`-prefixed keys are ours (QBO never uses them); a customer not
 * found stays unattached and the mapper uses what the document says.
 */
export async function attachCustomers(ctx: Pick<ReadContext, 'http' | 'signal'>, docs: QboDoc[]): Promise<void> {
  const ids = unique(docs.map((d) => refValue(d.CustomerRef)));
  const found = await readByIds(ctx, 'Customer', ids, ['Active IN (true, false)']);
  for (const d of docs) {
    const customer = found.get(refValue(d.CustomerRef) ?? '');
    if (customer) d._customer = customer;
  }
}

function refValue(ref: unknown): string | undefined {
  const v = (ref as { value?: unknown } | undefined)?.value;
  return v === undefined || v === null ? undefined : String(v);
}

export function unique(values: Array<string | undefined>): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
}

/**
 * Attaches the credit memos an invoice's LinkedTxn names as `_creditMemos`: the invoice says which memos
 * settled part of it but not how much, and the memos say it (map/invoice.ts, creditsApplied).
 */
export async function attachCreditMemos(ctx: Pick<ReadContext, 'http' | 'signal'>, docs: QboDoc[]): Promise<void> {
  const linksOf = (d: QboDoc) =>
    (Array.isArray(d.LinkedTxn) ? d.LinkedTxn : [])
      .filter(
        (l): l is { TxnType: string; TxnId: unknown } =>
          typeof l === 'object' && l !== null && (l as { TxnType?: unknown }).TxnType === 'CreditMemo',
      )
      .map((l) => String(l.TxnId));
  const ids = unique(docs.flatMap(linksOf));
  if (ids.length === 0) return;
  const found = await readByIds(ctx, 'CreditMemo', ids);
  for (const d of docs) {
    const memos = linksOf(d).flatMap((id) => {
      const m = found.get(id);
      return m ? [m] : [];
    });
    if (memos.length) d._creditMemos = memos;
  }
}
