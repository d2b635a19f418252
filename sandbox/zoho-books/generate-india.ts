import type { GeneratorContext } from './generator-context.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { CreditNoteRecord, EinvoiceRecord, InvoiceRecord, TdsRecord } from './store-records.js';
import { PROJECT_CODE_FIELD, REGION_TAG, regionOptionId } from './organisation-fields.js';

/**
 * India-only fields of a Zoho Books organisation, added to generated invoices from their own seeded stream
 * (so the rest of the data set is the same with or without them). Shapes, as the connector README cites:
 * `einvoice_details` {inv_ref_num, ack_number, ack_date, status, qr_link} (a third party's capture of a live
 * organisation), `tax_amount_withheld` on payments and invoices and line `tds_tax_*`
 * (https://www.zoho.com/books/api/v3/customer-payments/, https://www.zoho.com/books/api/v3/invoices/),
 * `is_reverse_charge_applied` / `reverse_charge_tax_total`, reporting `tags[]` and `custom_fields[]`.
 *
 * Shares of posted invoices to registered (`business_gst`) and overseas customers: about 45 % e-invoiced
 * (IRN, ack, QR link) — of those a void invoice's IRN is cancelled, and a few others are cancelled (IRN
 * cancelled, invoice not voided) or failed (no IRN); about 30 % of paid business invoices had TDS withheld
 * at 1, 2 or 10 % (the first payment is that much less cash); about 4 % of unpaid INR business invoices are
 * under reverse charge; half carry a reporting tag and a custom field.
 */
const TDS_TAXES: readonly (readonly [TdsRecord, number])[] = [
  [{ tax_id: '1890000000009101', tax_name: 'Professional fees (194J)', basisPoints: 1000 }, 5],
  [{ tax_id: '1890000000009102', tax_name: 'Contractors (194C)', basisPoints: 200 }, 3],
  [{ tax_id: '1890000000009103', tax_name: 'Contractors - individual (194C)', basisPoints: 100 }, 2],
];
const IST_MS = 330 * 60_000;

/** A line's TDS in minor units: item_total × rate, rounded half up. */
export function lineTdsMinor(itemTotalMinor: number, basisPoints: number): number {
  return Math.floor((itemTotalMinor * basisPoints + 5000) / 10000);
}

/** The TDS an invoice's lines state (Σ per line). */
export function invoiceTdsMinor(inv: InvoiceRecord): number {
  if (!inv.tds) return 0;
  return inv.amounts.lines.reduce((s, l) => s + lineTdsMinor(l.itemTotalMinor, inv.tds!.basisPoints), 0);
}

function istWallClock(ms: number): string {
  return new Date(ms + IST_MS).toISOString().slice(0, 19).replace('T', ' ');
}

export function addIndiaFields(
  ctx: GeneratorContext,
  random: SeededRandom,
  invoices: InvoiceRecord[],
  creditsByInvoice: ReadonlyMap<string, number>,
): void {
  for (const inv of invoices) {
    if (inv.status === 'draft') continue;
    const business = inv.gst_treatment === 'business_gst';
    if (random.chance(0.5)) {
      const region = random.int(0, REGION_TAG.options.length - 1);
      inv.reportingTag = {
        tag_id: REGION_TAG.tag_id,
        tag_name: REGION_TAG.tag_name,
        tag_option_id: regionOptionId(region),
        tag_option_name: REGION_TAG.options[region]!,
      };
      const { entity: _entity, ...field } = PROJECT_CODE_FIELD;
      inv.customFields = [{ ...field, value: `PRJ-${inv.date.slice(0, 4)}-${random.int(10, 99)}` }];
    }
    if ((business || inv.gst_treatment === 'overseas') && random.chance(0.45)) {
      const ackMs = Math.min(ctx.asOfMs, inv.createdMs + random.int(60, 900) * 1000);
      inv.einvoice = einvoiceOf(random, inv.status === 'void', ackMs);
      inv.modifiedMs = Math.max(inv.modifiedMs, ackMs);
    }
    const first = inv.payments[0];
    if (business && inv.currency_code === 'INR' && first && inv.status !== 'void' && random.chance(0.3)) {
      inv.tds = random.weighted(TDS_TAXES);
      const withheld = invoiceTdsMinor(inv);
      if (withheld > 0 && first.amountMinor > withheld) {
        first.amountMinor -= withheld;
        first.withheldMinor = withheld;
      } else delete inv.tds;
    }
    const unpaid = inv.payments.length === 0 && inv.writeOffMinor === 0 && !creditsByInvoice.get(inv.invoice_id);
    const a = inv.amounts;
    if (
      business &&
      inv.currency_code === 'INR' &&
      unpaid &&
      inv.status !== 'void' &&
      a.taxTotalMinor > 0 &&
      random.chance(0.04)
    ) {
      inv.reverseChargeTaxMinor = a.taxTotalMinor;
      a.totalMinor -= a.taxTotalMinor;
      a.taxTotalMinor = 0;
      a.taxes = [];
    }
  }
}

/** An e-invoice registration acknowledged at `ackMs`: pushed, else cancelled (always for a void document) or failed. */
function einvoiceOf(random: SeededRandom, voided: boolean, ackMs: number): EinvoiceRecord {
  const roll = random.next();
  const status = voided ? 'cancelled' : roll < 0.04 ? 'cancelled' : roll < 0.07 ? 'failed' : 'pushed';
  return {
    status,
    irn: status === 'failed' ? '' : random.hex(64),
    ackNumber: status === 'failed' ? '' : `1${random.digits(14)}`,
    ackDate: status === 'failed' ? '' : istWallClock(ackMs),
  };
}

/**
 * India fields of credit notes, from their own seeded stream: a credit note to a registered or overseas
 * customer is reported to the IRP like an invoice ("An IRN will have to be generated for each of these
 * transactions: Invoices, Credit Notes, Debit Notes",
 * https://www.zoho.com/in/books/help/e-invoicing/functions-einvoice.html), so about 45 % of the posted ones
 * carry `einvoice_details` of the invoice's shape (a void one's IRN cancelled), and half a Region
 * reporting tag (reporting tags reach credit notes: https://www.zoho.com/books/help/settings/reporting-tags.html).
 */
export function addCreditNoteIndiaFields(ctx: GeneratorContext, random: SeededRandom, notes: CreditNoteRecord[]): void {
  for (const cn of notes) {
    if (cn.status === 'draft') continue;
    if (random.chance(0.5)) {
      const region = random.int(0, REGION_TAG.options.length - 1);
      cn.reportingTag = {
        tag_id: REGION_TAG.tag_id,
        tag_name: REGION_TAG.tag_name,
        tag_option_id: regionOptionId(region),
        tag_option_name: REGION_TAG.options[region]!,
      };
    }
    if ((cn.gst_treatment === 'business_gst' || cn.gst_treatment === 'overseas') && random.chance(0.45)) {
      const ackMs = Math.min(ctx.asOfMs, cn.createdMs + random.int(60, 900) * 1000);
      cn.einvoice = einvoiceOf(random, cn.status === 'void', ackMs);
      cn.modifiedMs = Math.max(cn.modifiedMs, ackMs);
    }
  }
}
