import type { ReviewConfig } from '../../src/config.js';
import type { BillingBody } from '../../src/connector/billing-body.js';
import { dec } from '../../src/mapping/money.js';

/** Why a record waits for a person (the `rule` label of `erpsync_records_held`). */
export const REVIEW_RULES = [
  'all',
  'first-sync',
  'total-at-least',
  'new-customer',
  'foreign-currency',
  'credit-note',
  'total-changed',
] as const;
export type ReviewRule = (typeof REVIEW_RULES)[number];

/** What the upsert knows of a record besides its body, as the rules read it. */
export interface ReviewFacts {
  /** A person approved this version: nothing holds it. */
  approved: boolean;
  /** `first-sync`: the connection's first sync is not approved yet (src/pipeline/review-queue.ts). */
  firstSyncOpen: boolean;
  /** The buyer (or, for a customer, the record itself) is not known to billing through this connection yet. */
  newCustomer: boolean;
  /** The billing company's base currency. */
  billingCurrency: string;
  /** The total of the record's last write (the ledger's `invoiceTotal`); absent: never written, or not known. */
  previousTotal?: string | null;
}

/** A document's total and currency; undefined for a customer. */
export function documentTotal(body: BillingBody): { total: string; currency: string } | undefined {
  if (body.kind === 'invoice')
    return { total: String(body.invoice.invoiceTotal ?? 0), currency: body.invoice.invoiceCurrency ?? 'INR' };
  if (body.kind === 'credit-note')
    return {
      total: String(body.creditNote.creditNoteTotal ?? 0),
      currency: body.creditNote.creditNoteCurrency ?? 'INR',
    };
  return undefined;
}

/**
 * Which rule holds the record before it is written to billing, or undefined when it goes on. Rules are
 * tried in the order of REVIEW_RULES; the first that matches names the hold. Amounts compare as decimals.
 */
export function reviewRule(review: ReviewConfig, body: BillingBody, facts: ReviewFacts): ReviewRule | undefined {
  if (facts.approved || review === 'none') return undefined;
  if (review === 'all') return 'all';
  if (review === 'first-sync') return facts.firstSyncOpen ? 'first-sync' : undefined;
  const { rules } = review;
  const doc = documentTotal(body);
  const threshold = doc && rules.totalAtLeast?.[doc.currency];
  if (doc && threshold !== undefined && dec(doc.total).abs().gte(dec(threshold))) return 'total-at-least';
  if (rules.newCustomer && facts.newCustomer) return 'new-customer';
  if (rules.foreignCurrency && doc && doc.currency !== facts.billingCurrency) return 'foreign-currency';
  if (rules.creditNotes && body.kind === 'credit-note') return 'credit-note';
  if (
    rules.totalChangedBy !== undefined &&
    doc &&
    changedByMoreThan(facts.previousTotal, doc.total, rules.totalChangedBy)
  )
    return 'total-changed';
  return undefined;
}

/** |next − previous| > share × |previous|; from a previous total of zero, any change. */
function changedByMoreThan(previous: string | null | undefined, next: string, share: number): boolean {
  if (previous === undefined || previous === null) return false;
  const before = dec(previous);
  const delta = dec(next).minus(before).abs();
  if (before.isZero()) return !delta.isZero();
  return delta.gt(before.abs().times(dec(share)));
}
