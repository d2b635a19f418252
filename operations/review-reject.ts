import type { ReviewEntry } from '../src/pipeline/review-queue.js';
import type { Told } from './audited.js';
import { named, type ReviewDecisionHelpers, tellDecided } from './review-approve.js';
import { type ReviewSelection, selectReview } from './review-list.js';

export interface RejectReport {
  /** Records rejected: not written, and held as rejected until the source changes them again. */
  rejected: number;
  /** Records selected that were not waiting (rejected already), or replaced by a newer version meanwhile. */
  notHeld: number;
  /** For the audit log (operations/audited.ts): the one record rejected, if one, the records named and the note. */
  told: Pick<Told, 'record' | 'detail'>;
}

/**
 * `review reject`: the held records selected are not written. Each stays in the review queue as rejected,
 * with who and the note, until the source changes it again: a newer version is held for review as any
 * other (src/pipeline/lua/hold-for-review-2.lua), the rejected version never reaches billing.
 */
export async function rejectReview(
  rt: Pick<ReviewDecisionHelpers, 'connection' | 'review' | 'recordHistory'>,
  s: ReviewSelection & { all?: boolean },
  decision: { by: string; note: string },
): Promise<RejectReport> {
  const selected = await selectReview(rt, s);
  const done: ReviewEntry[] = [];
  for (const e of selected.filter((x) => x.state === 'held')) if (await rt.review.reject(e, decision)) done.push(e);
  await tellDecided(rt, done, 'rejected', decision.by, decision.note);
  const told = {
    ...(done.length === 1 ? { record: `${done[0]!.entity}/${done[0]!.erpId}` } : {}),
    detail: `rejected ${done.length}${named(done)}: ${decision.note}`,
  };
  return { rejected: done.length, notHeld: selected.length - done.length, told };
}
