import { CLASSES, CUSTOM_FIELDS, DEPARTMENTS } from './catalog.js';
import type { CustomFieldValue, Ref } from './model.js';
import type { SeededRandom } from '../kit/seeded-random.js';

const DAY = 86_400_000;

export interface Classification {
  classRef?: Ref;
  departmentRef?: Ref;
  customFields?: CustomFieldValue[];
  customerMemo?: string;
}

/**
 * How a generated invoice is classified, as a QBO company tags its sales: a class on most (≈70 %), a
 * department on half, the legacy "P.O. Number" and "Sales Rep" string fields on some, QBO Advanced's
 * enhanced fields (a project code, a number, a date) on ≈40 %, and a message for the customer
 * (CustomerMemo) on half. Its own random stream (a fork), so the rest of the generated company is the same
 * with or without it.
 */
export function classificationFor(rng: SeededRandom, txnDate: string): Classification {
  const out: Classification = {};
  if (rng.chance(0.7)) out.classRef = { ...rng.pick(CLASSES) };
  if (rng.chance(0.5)) out.departmentRef = { ...rng.pick(DEPARTMENTS) };
  const fields: CustomFieldValue[] = [];
  if (rng.chance(0.6)) fields.push({ ...CUSTOM_FIELDS.poNumber, StringValue: `PO-${rng.digits(5)}` });
  if (rng.chance(0.3)) fields.push({ ...CUSTOM_FIELDS.salesRep, StringValue: rng.pick(['Meera', 'Arjun', 'Kabir']) });
  if (rng.chance(0.4)) {
    const months = rng.pick([6, 12, 24, 36]);
    const renewal = new Date(Date.parse(`${txnDate}T00:00:00Z`) + months * 30 * DAY).toISOString().slice(0, 10);
    fields.push(
      { ...CUSTOM_FIELDS.projectCode, StringValue: `PRJ-${rng.letters(3).toUpperCase()}-${rng.digits(3)}` },
      { ...CUSTOM_FIELDS.contractMonths, NumberValue: months },
      { ...CUSTOM_FIELDS.renewalDate, DateValue: renewal },
    );
  }
  if (fields.length) out.customFields = fields;
  if (rng.chance(0.5))
    out.customerMemo = rng.pick(['Thank you for your business.', 'Please quote the PO number when paying.']);
  return out;
}
