import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentOptions, poll } from '../../../cli/tally-agent/agent-loop.js';
import { LocalQueue } from '../../../cli/tally-agent/local-queue.js';
import { tallyClient } from '../../../connectors/tally/client.js';
import { Settings } from '../../../connectors/tally/settings.js';
import { TransientError } from '../../../src/errors/index.js';
import { Cleanups } from '../../support/cleanups.js';
import { testPrefix } from '../../support/redis.js';
import { AGENT_CONNECTION, type AgentRig, startAgentRig } from './tally-agent-rig.js';

/**
 * One poll of the agent, in process, against the Tally emulator and the real worker: what it does when the
 * worker or Tally is away. Nothing waits on time: each poll is called and awaited.
 */
const cleanups = new Cleanups();
let rig: AgentRig;
let credential: string;
const silent = pino({ level: 'silent' });
/** Nothing listens on port 1 of the loopback: a refused connection at once. */
const NOWHERE = 'http://127.0.0.1:1';

beforeAll(async () => {
  rig = await startAgentRig(cleanups, testPrefix('agent-loop'), { invoices: 9, creditNotes: 2, customers: 3 });
  credential = (await rig.service.rt.agentCredentials.create(AGENT_CONNECTION)).credential;
}, 60_000);
afterAll(() => cleanups.run());

function agent(o: { worker: string; tally: string; stateDir: string }): AgentOptions {
  const settings = Settings.parse({ url: o.tally, company: rig.tally.companyName, rangeSize: 5, encoding: 'utf-8' });
  return {
    connection: AGENT_CONNECTION,
    target: { url: o.worker, credential, timeoutMs: 5_000, retry: { retries: 0 } },
    tally: {
      connectionId: AGENT_CONNECTION,
      http: tallyClient({ connectionId: AGENT_CONNECTION, settings, logger: silent, retry: { retries: 0 } }),
      logger: silent,
      until: new Date(),
      settings,
    },
    queue: new LocalQueue(o.stateDir),
    pollMs: 1_000,
    agentVersion: 'test',
    logger: silent,
    signal: new AbortController().signal,
  };
}

const inboxIds = async (entity: string) => {
  const all: string[] = [];
  for await (const page of rig.service.rt.agentInbox.readerFor(AGENT_CONNECTION).ids(entity)) all.push(...page);
  return all.sort();
};

describe('a poll of the Tally agent', () => {
  it('given Tally closed, when the agent polls, then the poll fails as transient and the worker still hears from the agent', async () => {
    const a = agent({ worker: rig.workerUrl, tally: NOWHERE, stateDir: mkdtempSync(join(tmpdir(), 'tally-agent-')) });
    await a.queue.open();
    await expect(poll(a)).rejects.toBeInstanceOf(TransientError);
    const contact = await rig.service.rt.agentInbox.contact(AGENT_CONNECTION);
    expect(contact?.agentVersion).toBe('test');
  });

  it('given the worker unreachable after a first range was read, when it is back, then the next poll sends that queued range first and goes on to everything Tally holds', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'tally-agent-'));
    const first = agent({ worker: rig.workerUrl, tally: rig.tally.url, stateDir });
    await first.queue.open();
    // A position for every stream (asked of the worker), then the worker goes away.
    for (const entity of ['customers', 'invoices', 'credit-notes']) await first.queue.setPosition(entity, 0);
    const away = agent({ worker: NOWHERE, tally: rig.tally.url, stateDir });
    await expect(poll(away)).rejects.toBeInstanceOf(TransientError);
    const queued = await away.queue.pending();
    expect(queued.map((q) => [q.batch.entity, q.batch.fromAlterId])).toEqual([['customers', 0]]);

    const back = await poll(first);
    expect(back.sent).toBeGreaterThan(1);
    expect(await first.queue.pending()).toEqual([]);
    expect(await inboxIds('invoices')).toEqual(
      rig.tally.store
        .invoices()
        .map((v) => v.guid)
        .sort(),
    );
    expect(await inboxIds('credit-notes')).toEqual(
      rig.tally.store
        .creditNotes()
        .map((v) => v.guid)
        .sort(),
    );
    expect(await inboxIds('customers')).toEqual(
      rig.tally.store
        .customers()
        .map((l) => l.guid)
        .sort(),
    );

    // Nothing new in Tally: the next poll is a heartbeat only.
    expect((await poll(first)).sent).toBe(0);
  });
});
