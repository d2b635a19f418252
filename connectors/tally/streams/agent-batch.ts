import { z } from 'zod';
import { TallyLookups } from './lookups.js';

/** Where the agent pushes its batches on the worker's HTTP port (`http.publicUrl`). */
export const AGENT_BATCHES_PATH = '/agent/v1/tally/batches';

/** The streams the agent reads and pushes, each with its own acknowledged AlterID. */
export const AGENT_ENTITIES = ['customers', 'invoices', 'credit-notes'] as const;
export type AgentEntity = (typeof AGENT_ENTITIES)[number];

/** The most objects one batch may carry (the agent sends `rangeSize` AlterIDs' worth, 500 by default). */
export const MAX_BATCH_RECORDS = 20_000;

/** A Tally object as the direct read exports it (streams/answer.ts): a GUID and an AlterID at least. */
const TallyRaw = z.looseObject({
  GUID: z.string().min(1).max(200),
  ALTERID: z.string().regex(/^\s*\d{1,15}\s*$/, 'expected a whole number'),
});

/**
 * One batch: the objects of one stream whose AlterIDs are in (fromAlterId, toAlterId], as the agent
 * exported them from TallyPrime, with what the worker shows of the agent (its version, how many batches
 * wait in its queue) and, now and then, the company's lookups. A batch with no records whose range is
 * empty (from = to) is a heartbeat: nothing changed, the agent is alive.
 */
export const AgentBatch = z
  .strictObject({
    connection: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
    entity: z.enum(AGENT_ENTITIES),
    fromAlterId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    toAlterId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    records: z.array(TallyRaw).max(MAX_BATCH_RECORDS),
    lookups: TallyLookups.optional(),
    agentVersion: z.string().min(1).max(64),
    backlog: z.number().int().min(0),
  })
  .refine((b) => b.fromAlterId <= b.toAlterId, { path: ['toAlterId'], message: 'toAlterId is below fromAlterId' })
  .refine((b) => b.records.every((r) => Number(r.ALTERID) > b.fromAlterId && Number(r.ALTERID) <= b.toAlterId), {
    path: ['records'],
    message: 'a record has an ALTERID outside (fromAlterId, toAlterId]',
  });
export type AgentBatch = z.infer<typeof AgentBatch>;

/** The worker's answer: every AlterID up to `ackedAlterId` of the batch's stream is stored. */
export const AgentAck = z.object({ ackedAlterId: z.number().int().min(0) });
export type AgentAck = z.infer<typeof AgentAck>;
