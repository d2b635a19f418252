import { buildLines } from './build-lines.js';
import { computeDocumentAmounts } from './compute-document-amounts.js';
import type { GeneratorContext } from './generator-context.js';
import { rateToMicro } from '../kit/minor-units.js';
import { SALESPEOPLE } from '../kit/sample-names.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { ContactRecord, CurrencyCode, Discount, InvoiceRecord } from './store-records.js';
import { addDays, formatZohoDate } from './zoho-timestamp.js';

export type DiscountScenario = 'none' | 'item' | 'entity_before' | 'entity_after';

export interface BuildInvoiceOptions {
  invoiceNumber: string;
  createdMs: number;
  /** 1–5 lines when omitted. */
  lineCount?: number;
  discount?: DiscountScenario;
  draft?: boolean;
}

/** Base-currency units per one foreign unit, 3 decimals, drifting around a mid rate (e.g. 83.125). */
export function exchangeRateMicro(currency: CurrencyCode, random: SeededRandom): number {
  if (currency === 'INR') return 1_000_000;
  const mid = currency === 'USD' ? 83.125 : 90.45;
  return rateToMicro(mid) + random.int(-1500, 1500) * 1000;
}

function percentDiscount(random: SeededRandom): Discount {
  return { kind: 'percent', basisPoints: random.pick([250, 500, 750, 1000, 1250, 1500, 2000]) };
}

/**
 * A new posted (or draft) invoice for `customer`, amounts computed; payments are added by the caller.
 * Intra-state customers get CGST+SGST groups, others IGST; overseas invoices are in the customer's currency
 * and half of them are zero-rated exports.
 */
export function buildInvoice(
  ctx: GeneratorContext,
  random: SeededRandom,
  customer: ContactRecord,
  opts: BuildInvoiceOptions,
): InvoiceRecord {
  const org = ctx.organization;
  const overseas = customer.gst_treatment === 'overseas';
  const currency = customer.currency_code;
  const lines = buildLines(ctx, random, {
    currency,
    intraState: customer.place_of_contact === org.state_code,
    zeroRated: overseas && random.chance(0.5),
    count:
      opts.lineCount ??
      random.weighted([
        [1, 35],
        [2, 30],
        [3, 20],
        [4, 10],
        [5, 5],
      ] as const),
    servicesOnly: overseas,
  });
  const scenario =
    opts.discount ??
    random.weighted([
      ['none', 55],
      ['item', 20],
      ['entity_before', 15],
      ['entity_after', 10],
    ] as const);
  if (scenario === 'item') {
    for (const line of lines) {
      if (!random.chance(0.6)) continue;
      line.discount = random.chance(0.6)
        ? percentDiscount(random)
        : {
            kind: 'amount',
            minor: Math.max(100, Math.floor((line.rateMinor * line.quantityHundredths) / 100 / 10 / 100) * 100),
          };
    }
  }
  const date = formatZohoDate(opts.createdMs, org.offsetMinutes);
  const terms = { days: customer.payment_terms, label: customer.payment_terms_label };
  const invoice: InvoiceRecord = {
    invoice_id: ctx.transactionIds.take(),
    invoice_number: opts.invoiceNumber,
    reference_number: random.chance(0.5) ? `PO-${random.int(1000, 9999)}` : '',
    customer_id: customer.contact_id,
    customer_name: customer.contact_name,
    contact_person_ids: customer.contact_persons.filter((p) => p.is_primary_contact).map((p) => p.contact_person_id),
    gst_no: customer.gst_no,
    gst_treatment: customer.gst_treatment,
    place_of_supply: customer.place_of_contact,
    date,
    due_date: addDays(date, terms.days),
    payment_terms: terms.days,
    payment_terms_label: terms.label,
    status: opts.draft ? 'draft' : 'sent',
    is_viewed_by_client: false,
    currency_code: currency,
    exchangeRateMicro: exchangeRateMicro(currency, random),
    lines,
    discount_type: scenario === 'entity_before' || scenario === 'entity_after' ? 'entity_level' : 'item_level',
    entityDiscount: null,
    is_discount_before_tax: scenario !== 'entity_after',
    shippingMinor: 0,
    adjustmentMinor: 0,
    adjustment_description: '',
    payments: [],
    writeOffMinor: 0,
    billing_address: { ...customer.billing_address },
    shipping_address: { ...customer.shipping_address },
    notes: 'Thanks for your business.',
    terms: 'Interest @ 18% p.a. is charged on payments received after the due date.',
    salesperson_name: random.pick(SALESPEOPLE),
    createdMs: opts.createdMs,
    modifiedMs: opts.createdMs,
    amounts: computeDocumentAmounts(
      {
        currency_code: currency,
        exchangeRateMicro: 1_000_000,
        lines,
        discount_type: 'item_level',
        entityDiscount: null,
        is_discount_before_tax: true,
        shippingMinor: 0,
        adjustmentMinor: 0,
        adjustment_description: '',
      },
      ctx.taxes,
    ),
  };
  const subTotal = invoice.amounts.subTotalMinor;
  if (invoice.discount_type === 'entity_level') {
    // Fixed amounts are whole currency units, at most ~10% of the sub-total.
    invoice.entityDiscount = random.chance(0.6)
      ? percentDiscount(random)
      : { kind: 'amount', minor: Math.max(100, Math.floor(subTotal / 10 / 100 / random.int(1, 4)) * 100) };
  }
  if (lines.some((l) => l.product_type === 'goods') && random.chance(0.3))
    invoice.shippingMinor = currency === 'INR' ? random.int(50, 1500) * 100 : random.int(10, 150) * 100;
  invoice.amounts = computeDocumentAmounts(invoice, ctx.taxes);
  if (random.chance(0.12)) {
    const kind = random.weighted([
      ['round', 6],
      ['goodwill', 3],
      ['surcharge', 3],
    ] as const);
    const total = invoice.amounts.totalMinor;
    if (kind === 'round') {
      invoice.adjustmentMinor = Math.round(total / 100) * 100 - total;
      invoice.adjustment_description = 'Rounding off';
    } else if (kind === 'goodwill') {
      invoice.adjustmentMinor = -Math.min(random.int(1, 5) * 1000, Math.floor(total / 10));
      invoice.adjustment_description = 'Goodwill adjustment';
    } else {
      invoice.adjustmentMinor = random.int(1, 20) * 500;
      invoice.adjustment_description = 'Freight surcharge';
    }
    invoice.amounts = computeDocumentAmounts(invoice, ctx.taxes);
  }
  return invoice;
}
