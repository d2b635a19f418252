/**
 * What a connector in agent mode reads instead of calling the source: the records an agent running beside
 * the source (a desktop application with no cloud API, such as TallyPrime) pushed to the worker, held in
 * Redis for one connection (src/pipeline/agent-inbox.ts). Records are the source's raw objects, the latest
 * copy of each id, ordered by the source's change counter (Tally's AlterID).
 */
export interface AgentInboxReader {
  /** The highest change counter the worker has acknowledged for the entity (0: nothing yet). */
  acked(entity: string): Promise<number>;
  /** The raw records whose counter is in (lo, hi], in counter order. */
  range(entity: string, lo: number, hi: number): Promise<unknown[]>;
  /** The raw records of these ids the agent pushed (absent ids are left out). */
  byIds(entity: string, ids: readonly string[]): Promise<unknown[]>;
  /** Every id the agent pushed for the entity, in pages. */
  ids(entity: string): AsyncIterable<string[]>;
  /** The lookups the agent last sent (the source's company and tax settings), or undefined. */
  lookups(): Promise<unknown>;
}
