import type { Runtime } from '../jobs/runtime.js';
import type { Ledger, LedgerEntry } from '../src/pipeline/ledger.js';

export type RecordQuery = { number: string } | { billingId: string };

export interface FoundRecord {
  connection: string;
  entity: string;
  erpId: string;
  number: string | null;
  billingId: string;
  version: string;
  writtenAt: number;
}

export interface RecordSearch {
  matches: FoundRecord[];
  /** Ledger entries read, and whether every entry of the connections' entities was (the walk stops at a bound). */
  scanned: number;
  complete: boolean;
}

/** How many ledger entries one search reads at most: about 2 s of HSCAN on a busy Redis. */
export const SEARCH_SCAN_BOUND = 500_000;
const MAX_MATCHES = 50;

const matches = (q: RecordQuery, e: LedgerEntry): boolean =>
  'number' in q ? e.number === q.number : e.billingId === q.billingId;

/**
 * Finds the records written to billing under an ERP document number or a billing id, by walking the
 * ledger (HSCAN, 1,000 entries a round trip) of each entity the connections sync, up to SEARCH_SCAN_BOUND
 * entries. A scan, not an index: a search is a person's occasional question, while an index by number
 * and by billing id would cost every ledger write two more keys to keep in step (put, delete, repair,
 * rebind) and Redis memory per record for every record ever written; a ledger of 100,000 invoices is
 * walked in about 100 round trips. `complete: false` says the bound cut the walk short.
 */
export async function searchRecords(
  rt: Pick<Runtime, 'connection'> & { ledger: Pick<Ledger, 'scan'> },
  connections: readonly string[],
  query: RecordQuery,
  bound = SEARCH_SCAN_BOUND,
): Promise<RecordSearch> {
  const found: FoundRecord[] = [];
  let scanned = 0;
  for (const connection of connections) {
    for (const entity of rt.connection(connection).config.entities) {
      for await (const batch of rt.ledger.scan(connection, entity)) {
        scanned += batch.length;
        for (const [erpId, e] of batch)
          if (matches(query, e) && found.length < MAX_MATCHES)
            found.push({
              connection,
              entity,
              erpId,
              number: e.number ?? null,
              billingId: e.billingId,
              version: e.version,
              writtenAt: e.writtenAt,
            });
        if (scanned >= bound) return { matches: found, scanned, complete: false };
      }
    }
  }
  return { matches: found, scanned, complete: true };
}
