import { COMPANY, EXPORT_TAX_CODE, GST_CODES, ITEMS } from './catalog.js';
import type { CustomFieldValue, DocKind, Ref, StoredCustomer, StoredDoc, StoredLine } from './model.js';
import type { SeededRandom } from '../kit/seeded-random.js';

/**
 * The tax code QBO India would pick: exports (overseas customers) are zero-rated IGST under LUT; an SEZ
 * unit is inter-state whatever its state; otherwise the same state as the company is intra-state
 * (CGST+SGST), any other state inter-state (IGST).
 */
export function taxCodeFor(customer: StoredCustomer, rateBp: number): string {
  if (customer.gstRegistrationType === 'OVERSEAS' || customer.currency !== 'INR') return EXPORT_TAX_CODE;
  const [intra, inter] = GST_CODES[rateBp] ?? GST_CODES[1800]!;
  if (customer.gstRegistrationType === 'SEZ') return inter;
  return customer.billAddr.CountrySubDivisionCode === COMPANY.state ? intra : inter;
}

/** A plausible rate for a currency, home (INR) per one foreign unit, to 4 decimals. */
export function exchangeRateFor(currency: string, rng: SeededRandom): string | undefined {
  const ranges: Record<string, readonly [number, number]> = { USD: [82, 84], EUR: [88, 92], GBP: [103, 107] };
  const range = ranges[currency];
  if (!range) return undefined;
  return `${rng.int(range[0], range[1])}.${rng.digits(4)}`;
}

/**
 * 1–3 item lines with whole quantities and unit prices in minor units (some with paise, e.g. 1234.50).
 * `divisor` scales the rupee price list for foreign-currency documents (≈80 for USD).
 */
export function generateLines(rng: SeededRandom, divisor = 1): StoredLine[] {
  const count = rng.int(1, 3);
  const lines: StoredLine[] = [];
  for (let i = 0; i < count; i++) {
    const item = rng.pick(ITEMS);
    const rupees = Math.max(1, Math.round(rng.int(item.price[0], item.price[1]) / divisor));
    const paise = rng.chance(0.3) ? rng.pick([50, 25, 99, rng.int(1, 99)]) : 0;
    lines.push({
      id: String(i + 1),
      itemId: item.id,
      itemName: item.name,
      description: item.description,
      qty: rng.int(1, 20),
      unitPricePaise: rupees * 100 + paise,
    });
  }
  return lines;
}

export interface NewDocument {
  kind: DocKind;
  id: string;
  docNumber: string;
  customer: StoredCustomer;
  txnDate: string;
  dueDate?: string;
  lines: StoredLine[];
  taxCodeId: string;
  discount?: StoredDoc['discount'];
  applyTaxAfterDiscount?: boolean;
  exchangeRate?: string;
  notes?: string[];
  privateNote?: string;
  customerMemo?: string;
  classRef?: Ref;
  departmentRef?: Ref;
  customFields?: CustomFieldValue[];
  invoiceRef?: string;
  at: number;
}

export function buildDocument(n: NewDocument): StoredDoc {
  const c = n.customer;
  return {
    kind: n.kind,
    id: n.id,
    syncToken: 0,
    docNumber: n.docNumber,
    txnDate: n.txnDate,
    ...(n.dueDate ? { dueDate: n.dueDate } : {}),
    customerId: c.id,
    currency: c.currency,
    ...(n.exchangeRate ? { exchangeRate: n.exchangeRate } : {}),
    lines: n.lines,
    notes: n.notes ?? [],
    ...(n.discount ? { discount: n.discount } : {}),
    applyTaxAfterDiscount: n.applyTaxAfterDiscount ?? true,
    taxCodeId: n.taxCodeId,
    paidPaise: 0,
    creditPaise: 0,
    voided: false,
    ...(n.privateNote ? { privateNote: n.privateNote } : {}),
    ...(n.customerMemo ? { customerMemo: n.customerMemo } : {}),
    ...(n.classRef ? { classRef: { ...n.classRef } } : {}),
    ...(n.departmentRef ? { departmentRef: { ...n.departmentRef } } : {}),
    ...(n.customFields?.length ? { customFields: n.customFields.map((f) => ({ ...f })) } : {}),
    linked: [],
    ...(n.invoiceRef ? { invoiceRef: n.invoiceRef } : {}),
    billAddr: { ...c.billAddr },
    ...(c.shipAddr ? { shipAddr: { ...c.shipAddr } } : {}),
    ...(c.email ? { billEmail: c.email } : {}),
    createTime: n.at,
    lastUpdated: n.at,
  };
}
