import type { SeededRandom } from '../kit/seeded-random.js';
import { msDate, parseMsDate } from './xero-date.js';
import type { XeroContact, XeroCreditNote, XeroInvoice, XeroLineTracking } from './xero-records.js';

const DAY = 86_400_000;

/**
 * The organisation's tracking categories (https://developer.xero.com/documentation/api/accounting/trackingcategories):
 * two, as Xero allows two active ones, each with its options, ids fixed so every tenant reads the same.
 */
interface TrackingCategory {
  TrackingCategoryID: string;
  Name: string;
  Options: ReadonlyArray<{ TrackingOptionID: string; Name: string }>;
}

export const TRACKING_CATEGORIES: readonly TrackingCategory[] = [
  {
    TrackingCategoryID: 'e2f2f732-e92a-4f3a-9c4d-ee4da0182a13',
    Name: 'Region',
    Options: [
      { TrackingOptionID: 'c3a1d6f0-57b5-4a5e-8e0c-1d2e3f405101', Name: 'South' },
      { TrackingOptionID: 'c3a1d6f0-57b5-4a5e-8e0c-1d2e3f405102', Name: 'West' },
      { TrackingOptionID: 'c3a1d6f0-57b5-4a5e-8e0c-1d2e3f405103', Name: 'North' },
    ],
  },
  {
    TrackingCategoryID: '9b4c2d1e-0f6a-4b7c-8d9e-0a1b2c3d4e5f',
    Name: 'Sales channel',
    Options: [
      { TrackingOptionID: '5d6e7f80-91a2-4b3c-8d4e-5f6071829301', Name: 'Direct' },
      { TrackingOptionID: '5d6e7f80-91a2-4b3c-8d4e-5f6071829302', Name: 'Partner' },
    ],
  },
];

function trackingOf(rng: SeededRandom): XeroLineTracking[] {
  const out: XeroLineTracking[] = [];
  for (const category of TRACKING_CATEGORIES) {
    if (!rng.chance(0.6)) continue;
    const option = rng.pick(category.Options);
    out.push({
      TrackingCategoryID: category.TrackingCategoryID,
      TrackingOptionID: option.TrackingOptionID,
      Name: category.Name,
      Option: option.Name,
    });
  }
  return out;
}

/**
 * What an organisation that tracks its sales adds to the generated history, from its own random stream (a
 * fork, so the rest of the history is the same with or without it): tracking on most sales lines, an
 * ExpectedPaymentDate on ≈40 % of the sales invoices still owed (a few days after the due date: "Shown on
 * sales invoices (Accounts Receivable) when this has been set",
 * https://developer.xero.com/documentation/api/accounting/invoices), and a default sales tracking on a
 * third of the customers (SalesTrackingCategories,
 * https://developer.xero.com/documentation/api/accounting/contacts). Only fields that move no money and
 * no timestamp are set.
 */
export function addTracking(
  rng: SeededRandom,
  invoices: readonly XeroInvoice[],
  creditNotes: readonly XeroCreditNote[],
  contacts: readonly XeroContact[],
): void {
  for (const doc of [...invoices, ...creditNotes]) {
    if (doc.Type !== 'ACCREC' && doc.Type !== 'ACCRECCREDIT') continue;
    for (const line of doc.LineItems) line.Tracking = trackingOf(rng);
  }
  for (const inv of invoices) {
    if (inv.Type !== 'ACCREC' || inv.Status !== 'AUTHORISED' || inv.AmountDue <= 0 || !rng.chance(0.4)) continue;
    const due = parseMsDate(inv.DueDate);
    if (due !== undefined) inv.ExpectedPaymentDate = msDate(due + rng.int(0, 14) * DAY);
  }
  for (const contact of contacts) {
    if (!contact.IsCustomer || !rng.chance(1 / 3)) continue;
    contact.SalesTrackingCategories = trackingOf(rng).map((t) => ({
      TrackingCategoryName: t.Name,
      TrackingOptionName: t.Option,
    }));
    if (contact.SalesTrackingCategories.length === 0) delete contact.SalesTrackingCategories;
  }
}
