import type { BillingClient } from '../../src/billing/client.js';
import type { InvoiceRecord, OriginSource } from '../../src/billing/schemas/index.js';

type Meta = Record<string, unknown>;
const metaOf = (r: InvoiceRecord): Meta => ((r as Record<string, unknown>).metaData ?? {}) as Meta;
const money = (n: number | null | undefined) => (n ?? 0).toFixed(2);

/**
 * Two lines of the demo for an Indian ERP connection: one e-invoiced invoice (IRN, acknowledgement) and one on
 * which the customer withheld TDS, as billing lists them — what reached billing, not what was sent.
 */
export async function indiaSamples(billing: BillingClient, originSource: OriginSource): Promise<string[]> {
  const page = await billing.listInvoices({
    originSource: [originSource],
    lifecycleStatuses: ['FINALIZED'],
    pageSize: 500,
  });
  const lines: string[] = [];
  const einvoiced = page.docs.find((r) => r.irnNumber);
  if (einvoiced) {
    const m = metaOf(einvoiced);
    lines.push(
      `  e-invoiced in billing: ${einvoiced.invoiceNumber} irnNumber ${einvoiced.irnNumber!.slice(0, 12)}…, ack ${String(m.einvoiceAckNumber ?? m.irnAckNo)} at ${String(m.einvoiceAcknowledgedAt ?? m.irnAckDate)} (metaData), outstanding ${money(einvoiced.invoiceOutstandingAmount)}`,
    );
  }
  const tds = page.docs.find((r) => Number((r.invoiceTds as Meta | null)?.tds ?? 0) > 0);
  if (tds) {
    const t = tds.invoiceTds as { tds: number; tdsRate: number };
    lines.push(
      `  TDS withheld in billing: ${tds.invoiceNumber} tds ${money(t.tds)} @ ${t.tdsRate} %, total ${money(tds.invoiceTotal)} − paid ${money(tds.invoicePaidAmount)} − adjusted ${money(tds.invoiceAdjustedAmount)} = outstanding ${money(tds.invoiceOutstandingAmount)}`,
    );
  }
  return lines;
}
