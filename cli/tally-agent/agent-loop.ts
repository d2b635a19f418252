import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ReadContext } from '../../src/connector/types.js';
import { SyncError } from '../../src/errors/index.js';
import type { Settings } from '../../connectors/tally/settings.js';
import { CREDIT_NOTES_READ } from '../../connectors/tally/streams/credit-notes.js';
import { CUSTOMERS_READ } from '../../connectors/tally/streams/customers.js';
import { INVOICES_READ } from '../../connectors/tally/streams/invoices.js';
import { readFromTally } from '../../connectors/tally/streams/lookups.js';
import { companyAlterIds, readAlterIdRange, type TallyStreamSpec } from '../../connectors/tally/streams/read.js';
import { AgentBatch, type AgentEntity } from '../../connectors/tally/streams/agent-batch.js';
import type { LocalQueue } from './local-queue.js';
import { pushBatch, type PushTarget } from './push-client.js';

/** The streams the agent pushes, customers first (an invoice's customer then reaches billing before it). */
const READS: ReadonlyArray<readonly [AgentEntity, TallyStreamSpec]> = [
  ['customers', CUSTOMERS_READ],
  ['invoices', INVOICES_READ],
  ['credit-notes', CREDIT_NOTES_READ],
];

export interface AgentOptions {
  connection: string;
  target: PushTarget;
  /** TallyPrime on this PC: its client, company and rangeSize (the direct read's own context). */
  tally: ReadContext<Settings>;
  queue: LocalQueue;
  /** How long between polls of Tally, and between tries while Tally or the worker is away. */
  pollMs: number;
  agentVersion: string;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * The agent: polls TallyPrime and pushes what changed to the worker until `signal` aborts. Each poll first
 * sends what its queue still holds (a batch read before a restart, a kill or a lost network), then reads
 * each stream from the AlterID the worker last acknowledged, one range at a time: the range is written to
 * the queue, sent, and removed once acknowledged, so nothing read is lost and nothing is skipped. Tally
 * closed, its company not loaded, the PC waking from sleep or the worker unreachable: the poll fails, is
 * logged, and the next poll starts over from the same place.
 */
export async function runAgent(o: AgentOptions): Promise<void> {
  await o.queue.open();
  o.logger.info({ connection: o.connection, worker: o.target.url, version: o.agentVersion }, 'tally agent started');
  while (!o.signal.aborted) {
    try {
      await poll(o);
    } catch (err) {
      if (o.signal.aborted) break;
      if (!(err instanceof SyncError)) throw err;
      o.logger.warn({ err: err.toJSON() }, `tally agent: ${err.message}; trying again in ${o.pollMs / 1000} s`);
    }
    await sleep(o.pollMs, undefined, { signal: o.signal }).catch(() => {});
  }
  o.logger.info('tally agent stopped');
}

/** One poll: the queue, then every stream from its acknowledged AlterID up to the company's. */
export async function poll(o: AgentOptions): Promise<{ sent: number }> {
  let sent = 0;
  for (const { name, batch } of await o.queue.pending()) {
    await send(o, name, batch);
    sent++;
  }
  const tops = await companyAlterIds(o.tally).catch(async (err: unknown) => {
    // Tally closed or its company not loaded: the worker still hears that the agent is alive.
    const at = (await o.queue.positions()).invoices ?? 0;
    await send(o, undefined, { ...header(o, 'invoices', at, at, 0), records: [] }).catch(() => {});
    throw err;
  });
  const lookups = await readFromTally(o.tally);
  const positions = await o.queue.positions();
  for (const [entity] of READS) positions[entity] ??= await acknowledged(o, entity, lookups);
  const backlog = () => READS.reduce((n, [e, spec]) => n + Math.max(0, tops[spec.counter] - positions[e]!), 0);
  for (const [entity, spec] of READS) {
    const top = tops[spec.counter];
    if (positions[entity]! > top)
      o.logger.warn(
        { entity, acked: positions[entity], top },
        'tally AlterIDs are lower than the worker holds (a restored company?)',
      );
    while (positions[entity]! < top) {
      const from = positions[entity]!;
      const to = Math.min(from + o.tally.settings.rangeSize, top);
      const records = await readAlterIdRange(o.tally, spec, from, to);
      const batch = AgentBatch.parse({ ...header(o, entity, from, to, backlog()), records, lookups });
      positions[entity] = await send(o, await o.queue.put(batch), batch);
      sent++;
    }
  }
  // Nothing changed: a heartbeat, so the worker knows the agent is alive (and has the lookups).
  if (sent === 0)
    await send(o, undefined, {
      ...header(o, 'invoices', positions.invoices!, positions.invoices!, 0),
      records: [],
      lookups,
    });
  return { sent };
}

function header(o: AgentOptions, entity: AgentEntity, from: number, to: number, backlog: number) {
  return { connection: o.connection, entity, fromAlterId: from, toAlterId: to, agentVersion: o.agentVersion, backlog };
}

/** Where the worker stands for a stream this agent has no position for (a first run, a new state dir). */
async function acknowledged(o: AgentOptions, entity: AgentEntity, lookups: AgentBatch['lookups']): Promise<number> {
  const { ackedAlterId } = await pushBatch(
    o.target,
    { ...header(o, entity, 0, 0, 0), records: [], ...(lookups ? { lookups } : {}) },
    o.signal,
  );
  await o.queue.setPosition(entity, ackedAlterId);
  return ackedAlterId;
}

/**
 * Sends one batch (queued as `name`, or a heartbeat) and moves the stream's position to what the worker
 * acknowledged. A gap (the worker holds less than the batch assumed: its Redis was restored, or the
 * state dir is from elsewhere) drops the batch: the next reads start from the worker's position.
 */
async function send(o: AgentOptions, name: string | undefined, batch: AgentBatch): Promise<number> {
  const { ackedAlterId, gap } = await pushBatch(o.target, batch, o.signal);
  if (gap)
    o.logger.warn(
      { entity: batch.entity, from: batch.fromAlterId, acked: ackedAlterId },
      'the worker holds less than this batch assumed; reading again from its position',
    );
  if (name) await o.queue.remove(name);
  await o.queue.setPosition(batch.entity, ackedAlterId);
  if (batch.records.length > 0 || gap)
    o.logger.info(
      {
        entity: batch.entity,
        from: batch.fromAlterId,
        to: batch.toAlterId,
        records: batch.records.length,
        acked: ackedAlterId,
      },
      'batch acknowledged',
    );
  return ackedAlterId;
}
