import type { RawRow } from '../../../src/connector/define-stream.js';
import type { AgentInboxReader } from '../../../src/connector/agent-inbox-reader.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { ConfigError, DataContractError } from '../../../src/errors/index.js';
import type { Settings } from '../settings.js';
import type { TallyObject } from './answer.js';

/**
 * Agent mode's reads: the objects `erp-sync tally-agent` read from TallyPrime on the company's PC and pushed
 * to the worker (src/pipeline/agent-inbox.ts), instead of a call to Tally. They are the objects the direct
 * read would have exported (the same envelope, the same fields), so the same marks, ranges, pages and
 * mappers apply: the "company's AlterID" here is the AlterID up to which the worker acknowledged the
 * agent's batches, and every object the agent pushes later has a higher AlterID.
 */
export function agentSource(
  ctx: ReadContext<Settings>,
  entity: string,
  rowOf: (raw: TallyObject) => RawRow<TallyObject>,
) {
  const inbox = inboxOf(ctx);
  const rows = (raws: unknown[]) => raws.map(objectOf).map(rowOf);
  return {
    top: () => inbox.acked(entity),
    rows: async (lo: number, hi: number, window?: { from: string; to: string }) =>
      rows((await inbox.range(entity, lo, hi)).filter((raw) => inWindow(raw, window))),
    async *byIds(ids: readonly string[]) {
      yield rows(await inbox.byIds(entity, ids));
    },
    ids: () => inbox.ids(entity),
  };
}

/** The inbox reader of an agent-mode read; a read context without one is a wiring mistake. */
export function inboxOf(ctx: ReadContext<Settings>): AgentInboxReader {
  if (!ctx.agentInbox)
    throw new ConfigError(`tally connection ${ctx.connectionId}: agent mode needs the worker's agent inbox`, {
      source: 'tally',
      operation: 'read (agent mode)',
    });
  return ctx.agentInbox;
}

function objectOf(raw: unknown): TallyObject {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return raw as TallyObject;
  throw new DataContractError('tally agent: a pushed record is not an object', {
    source: 'tally',
    operation: 'read (agent mode)',
  });
}

/** A backfill window's documents by their DATE (YYYYMMDD), as Tally's SVFROMDATE/SVTODATE would choose them. */
function inWindow(raw: unknown, window?: { from: string; to: string }): boolean {
  if (!window) return true;
  const date = (raw as { DATE?: unknown }).DATE;
  if (typeof date !== 'string') return false;
  return date >= window.from.replaceAll('-', '') && date <= window.to.replaceAll('-', '');
}
