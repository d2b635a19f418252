import type { Ledger } from './ledger.js';
import type { ScratchIdSet } from './reconcile-state.js';

/**
 * The ids the ledger holds live (not yet marked deleted) for one entity that a full listing of the source
 * lacks: candidates for a delete, in batches. The listing goes into a Redis scratch set as it streams in
 * (a company's every id is never held in memory), then the ledger is scanned against it; the set is
 * dropped at the end.
 */
export async function* idsGone(
  ledger: Pick<Ledger, 'scan'>,
  sourceIds: ScratchIdSet,
  connection: string,
  entity: string,
  listing: AsyncIterable<string[]>,
): AsyncGenerator<string[]> {
  try {
    for await (const page of listing) await sourceIds.add(page);
    await sourceIds.expireIn(3_600_000);
    for await (const batch of ledger.scan(connection, entity, 1000)) {
      const live = batch.filter(([, e]) => !e.sourceDeletedAt).map(([id]) => id);
      if (!live.length) continue;
      const present = await sourceIds.has(live);
      const gone = live.filter((_, i) => !present[i]);
      if (gone.length) yield gone;
    }
  } finally {
    await sourceIds.drop();
  }
}
