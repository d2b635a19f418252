import type { IdSequence } from './id-sequence.js';
import type { ItemDefinition } from './item-catalog.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { CurrencyRecord, OrganizationRecord } from './store-records.js';
import type { TaxCatalog } from './tax-catalog.js';
import { localMidnight } from './zoho-timestamp.js';

/** What every part of the generator (and the store's "create" mutations) needs to make records. */
export interface GeneratorContext {
  organization: OrganizationRecord;
  currencies: CurrencyRecord[];
  taxes: TaxCatalog;
  items: ItemDefinition[];
  /** The "Sales" income account credit-note lines post to. */
  salesAccountId: string;
  /** Org-level records (currencies, taxes, items, contacts): 16-digit ids. */
  masterIds: IdSequence;
  /** Transactions (invoices, lines, payments, credit notes): 17-digit ids, above MAX_SAFE_INTEGER. */
  transactionIds: IdSequence;
  /** First and last calendar day (org time) of generated activity. */
  from: string;
  to: string;
  /** End of `to` in org time: statuses (overdue) are derived as of this instant. */
  asOfMs: number;
}

const DAY_MS = 86_400_000;

/** A business-hours instant (09:00–19:59 org time) on a random day of [from, to], whole seconds. */
export function businessInstant(ctx: GeneratorContext, random: SeededRandom, from = ctx.from, to = ctx.to): number {
  const start = localMidnight(from, ctx.organization.offsetMinutes);
  const days = Math.max(1, Math.round((localMidnight(to, ctx.organization.offsetMinutes) - start) / DAY_MS) + 1);
  return start + random.int(0, days - 1) * DAY_MS + random.int(9 * 3600, 20 * 3600 - 1) * 1000;
}

/** A whole-second instant uniformly between two instants (inclusive). */
export function instantBetween(random: SeededRandom, fromMs: number, toMs: number): number {
  const a = Math.ceil(fromMs / 1000);
  const b = Math.max(a, Math.floor(toMs / 1000));
  return random.int(a, b) * 1000;
}
