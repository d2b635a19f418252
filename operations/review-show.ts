import type { ConnectionHandle } from '../jobs/runtime.js';
import type { ReviewEntry, ReviewQueue } from '../src/pipeline/review-queue.js';
import { bodyOf } from './review-list.js';

/** One held (or rejected) record in full: the body that would be sent and the rule that held it. */
export interface ReviewRecord {
  entry: Omit<ReviewEntry, 'payload'>;
  /** The billing body that would be sent, as the mapper made it. */
  body: unknown;
}

/** `review show`: one record of the connection's review queue; undefined when it holds none (an unknown connection throws). */
export async function showReview(
  rt: { connection(id: string): ConnectionHandle; review: Pick<ReviewQueue, 'get'> },
  connection: string,
  entity: string,
  erpId: string,
): Promise<ReviewRecord | undefined> {
  rt.connection(connection);
  const e = await rt.review.get(connection, entity, erpId);
  if (!e) return undefined;
  const { payload, ...entry } = e;
  return { entry, body: bodyOf(e) ?? (payload as { body?: unknown } | undefined)?.body };
}
