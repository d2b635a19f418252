import { DataContractError } from '../errors/index.js';
import { placeInstant } from '../mapping/time.js';

/**
 * A stream state's cursor as epoch ms (undefined: from the beginning). A checkpoint that is not an instant
 * was not written by the stream (hand-edited, or another version's): retrying cannot mend it, so it is a
 * DataContractError (not retried) naming the stream, never a RangeError from deeper down that the queue
 * would retry. A cursor without its zone is refused the same way, never read as the host's local time.
 */
export function cursorMsOf(cursor: string | null, where: { source: string; operation: string }): number | undefined {
  if (cursor === null) return undefined;
  const iso = placeInstant(cursor, 'checkpoint cursor', {
    fail: () =>
      new DataContractError(
        `${where.source} ${where.operation}: checkpoint cursor ${JSON.stringify(cursor).slice(0, 40)} is not an instant with its zone`,
        where,
      ),
  });
  return Date.parse(iso);
}
