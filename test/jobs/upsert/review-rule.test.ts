import { describe, expect, it } from 'vitest';
import { type ReviewRule, type ReviewFacts, reviewRule } from '../../../jobs/upsert/review-rule.js';
import { ReviewConfig } from '../../../src/config.js';
import type { BillingBody } from '../../../src/connector/billing-body.js';

// Only what the rules read of a body: its kind, total and currency.
const invoice = (total: number, currency = 'INR') =>
  ({ kind: 'invoice', invoice: { invoiceTotal: total, invoiceCurrency: currency } }) as unknown as BillingBody;
const creditNote = (total: number, currency = 'INR') =>
  ({
    kind: 'credit-note',
    creditNote: { creditNoteTotal: total, creditNoteCurrency: currency },
  }) as unknown as BillingBody;
const customer = { kind: 'customer', customer: { buyerId: 'B1', name: 'Acme' } } as unknown as BillingBody;

const FACTS: ReviewFacts = { approved: false, firstSyncOpen: false, newCustomer: false, billingCurrency: 'INR' };
const RULES = ReviewConfig.parse({
  rules: {
    totalAtLeast: { INR: '100000', USD: '2000.50' },
    newCustomer: true,
    foreignCurrency: true,
    creditNotes: true,
    totalChangedBy: 0.2,
  },
});

describe('given a connection review config, the rule that holds a record before it is written', () => {
  const table: Array<[string, ReviewConfig, BillingBody, Partial<ReviewFacts>, ReviewRule | undefined]> = [
    ['none holds nothing', 'none', invoice(10_000_000), { newCustomer: true }, undefined],
    ['all holds every record', 'all', invoice(1), {}, 'all'],
    ['all holds customers too', 'all', customer, {}, 'all'],
    ['all: an approved version is not held again', 'all', invoice(1), { approved: true }, undefined],
    ['first-sync holds while the first sync is open', 'first-sync', invoice(1), { firstSyncOpen: true }, 'first-sync'],
    ['first-sync holds nothing once approved', 'first-sync', invoice(1), { firstSyncOpen: false }, undefined],
    ['a total at the threshold is held', RULES, invoice(100_000), {}, 'total-at-least'],
    ['a total just below it is not', RULES, invoice(99_999.99), {}, undefined],
    ['the threshold is per currency (decimal, exact)', RULES, invoice(2000.5, 'USD'), {}, 'total-at-least'],
    ['below the USD threshold, a foreign currency', RULES, invoice(2000.49, 'USD'), {}, 'foreign-currency'],
    ['a currency without a threshold: only foreign', RULES, invoice(10_000_000, 'EUR'), {}, 'foreign-currency'],
    ['a new customer (buyer not ensured)', RULES, invoice(10), { newCustomer: true }, 'new-customer'],
    ['a customer record never written', RULES, customer, { newCustomer: true }, 'new-customer'],
    ['a known customer record', RULES, customer, {}, undefined],
    ['a credit note', RULES, creditNote(10), {}, 'credit-note'],
    ['a large credit note: the amount rule first', RULES, creditNote(150_000), {}, 'total-at-least'],
    ['a total changed by more than 20 %', RULES, invoice(1201), { previousTotal: '1000' }, 'total-changed'],
    ['a fall by more than 20 % too', RULES, invoice(799.99), { previousTotal: '1000' }, 'total-changed'],
    ['a change of exactly 20 % is not held', RULES, invoice(1200), { previousTotal: '1000' }, undefined],
    ['from a previous total of zero, any change', RULES, invoice(1), { previousTotal: '0' }, 'total-changed'],
    ['never written: no change to measure', RULES, invoice(1000), {}, undefined],
    ['an ordinary invoice passes every rule', RULES, invoice(500), { previousTotal: '490' }, undefined],
    [
      'only the rules configured apply',
      ReviewConfig.parse({ rules: { creditNotes: true } }),
      invoice(10_000_000, 'USD'),
      { newCustomer: true },
      undefined,
    ],
  ];
  it.each(table)('%s', (_name, config, body, facts, expected) => {
    expect(reviewRule(config, body, { ...FACTS, ...facts })).toBe(expected);
  });

  it('when the rules form names no rule, then the config is refused', () => {
    expect(ReviewConfig.safeParse({ rules: {} }).success).toBe(false);
    expect(ReviewConfig.safeParse({ rules: { totalAtLeast: { INR: '1,000' } } }).success).toBe(false);
    expect(ReviewConfig.safeParse('some').success).toBe(false);
  });
});
