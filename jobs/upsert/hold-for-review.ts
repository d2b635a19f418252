import type { ReviewConfig } from '../../src/config.js';
import type { BillingBody } from '../../src/connector/billing-body.js';
import type { RecordBegun } from '../../src/pipeline/upsert-state.js';
import type { HoldResult, ReviewQueue } from '../../src/pipeline/review-queue.js';
import type { UpsertJobData } from '../catalog.js';
import { type ReviewRule, reviewRule } from './review-rule.js';

/** What the upsert's review check uses (absent from an upsert's helpers: nothing is ever held). */
export interface ReviewHelpers {
  /** The connection's `review` (a connection a reload removed: `none`). */
  configOf(connectionId: string): ReviewConfig;
  /** The connection's entities (whether its ledger is empty decides a `first-sync` connection is new). */
  entitiesOf(connectionId: string): readonly string[];
  /** The base currency of the billing company the connection writes to. */
  billingCurrency(connectionId: string): string;
  queue: Pick<ReviewQueue, 'hold' | 'firstSyncOpen' | 'clear'>;
}

/**
 * The review check, just before a record is written to billing: the rule that holds it and what the hold
 * did (src/pipeline/review-queue.ts: `held`, replacing an older version held; `kept`, held already;
 * `rejected`, a version a person rejected stays so; `newer`, a newer version is held already), or
 * undefined when it goes on.
 */
export async function holdForReview(
  review: ReviewHelpers | undefined,
  data: UpsertJobData,
  body: BillingBody,
  begun: RecordBegun,
  /** The buyer the body names, if any. */
  buyerId: string | undefined,
): Promise<{ rule: ReviewRule; result: HoldResult } | undefined> {
  if (!review || data.approvedBy) return undefined;
  const conn = data.connectionId;
  const config = review.configOf(conn);
  if (config === 'none') return undefined;
  const rule = reviewRule(config, body, {
    approved: false,
    firstSyncOpen: config === 'first-sync' && (await review.queue.firstSyncOpen(conn, review.entitiesOf(conn))),
    newCustomer: body.kind === 'customer' ? !begun.current : buyerId !== undefined && !begun.customerEnsured,
    billingCurrency: review.billingCurrency(conn),
    previousTotal: begun.current?.fields?.invoiceTotal,
  });
  if (!rule) return undefined;
  const result = await review.queue.hold({
    connection: conn,
    entity: data.entity,
    erpId: data.erpId,
    version: data.version,
    hash: data.hash,
    rule,
    since: Date.now(),
    payload: data,
  });
  return { rule, result };
}
