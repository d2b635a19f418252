import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_BATCHES_PATH, type AgentBatch } from '../../connectors/tally/streams/agent-batch.js';
import { collectConnections } from '../../operations/list-connections.js';
import { Cleanups } from '../support/cleanups.js';
import { testPrefix } from '../support/redis.js';
import { AGENT_CONNECTION, type AgentRig, startAgentRig } from '../cli/tally-agent/tally-agent-rig.js';

/**
 * The worker's route for the Tally agent's batches, over loopback on the real service: the credential is
 * checked before the body is read, a batch is stored before it is acknowledged, and a batch sent again
 * is stored once.
 */
const cleanups = new Cleanups();
let rig: AgentRig;
let credential: string;

beforeAll(async () => {
  rig = await startAgentRig(cleanups, testPrefix('agent-ingress'), { invoices: 2, creditNotes: 0, customers: 2 });
  credential = (await rig.service.rt.agentCredentials.create(AGENT_CONNECTION)).credential;
});
afterAll(() => cleanups.run());

const voucher = (alterId: number) => ({
  GUID: `guid-${alterId}`,
  ALTERID: String(alterId),
  VOUCHERNUMBER: `S/${alterId}`,
});

function batch(from: number, to: number, over: Partial<AgentBatch> = {}): AgentBatch {
  const records = [];
  for (let a = from + 1; a <= to; a++) records.push(voucher(a));
  return {
    connection: AGENT_CONNECTION,
    entity: 'invoices',
    fromAlterId: from,
    toAlterId: to,
    records,
    agentVersion: '9.9.9',
    backlog: 7,
    ...over,
  };
}

/** `auth` null: no Authorization header at all. */
const push = (body: string, auth: string | null = credential) =>
  fetch(new URL(AGENT_BATCHES_PATH, rig.workerUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth === null ? {} : { authorization: `Bearer ${auth}` }) },
    body,
  });

describe('POST /agent/v1/tally/batches', () => {
  it('given an agent never heard from, then its last contact is +Inf seconds ago on /metrics (the silence alert can fire)', async () => {
    const metrics = await (await fetch(new URL('/metrics', rig.workerUrl))).text();
    expect(metrics).toMatch(/^erpsync_agent_last_contact_age_seconds\{connection="tally-agent"\} \+Inf$/m);
  });

  it('given no credential or a wrong one, when a body that is not even JSON is sent, then the answer is 401 (not 400): the body was never read', async () => {
    for (const auth of [null, `${AGENT_CONNECTION}.${'A'.repeat(43)}`, 'nonsense']) {
      const res = await push('{not json', auth);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('UNAUTHENTICATED');
    }
    expect(await rig.service.rt.agentInbox.contact(AGENT_CONNECTION)).toBeUndefined();
  });

  it("given the right credential, when a batch is sent twice, then both answers acknowledge its end and the worker holds each record once, with the agent's contact", async () => {
    const first = await push(JSON.stringify(batch(0, 5)));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ackedAlterId: 5 });
    const again = await push(JSON.stringify(batch(0, 5)));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ackedAlterId: 5 });
    const inbox = rig.service.rt.agentInbox.readerFor(AGENT_CONNECTION);
    const held = (await inbox.range('invoices', 0, 100)) as Array<{ GUID: string }>;
    expect(held.map((r) => r.GUID)).toEqual(['guid-1', 'guid-2', 'guid-3', 'guid-4', 'guid-5']);
    const contact = await rig.service.rt.agentInbox.contact(AGENT_CONNECTION);
    expect(contact).toMatchObject({ agentVersion: '9.9.9', backlog: 7, acked: { invoices: 5 } });
    // What `connections`, `status` and the API show, and what Prometheus scrapes.
    const listed = (await collectConnections(rig.service.rt)).connections[0]!;
    expect(listed.agent).toMatchObject({ version: '9.9.9', backlog: 7, acked: { invoices: 5 } });
    expect(listed.agent!.silentSeconds).toBeLessThan(60);
    const metrics = await (await fetch(new URL('/metrics', rig.workerUrl))).text();
    const age = /^erpsync_agent_last_contact_age_seconds\{connection="tally-agent"\} (\S+)$/m.exec(metrics);
    expect(Number(age?.[1])).toBeLessThan(60);
    expect(metrics).toMatch(/^erpsync_agent_backlog\{connection="tally-agent"\} 7$/m);
  });

  it('given batches acknowledged up to 5, when a batch starts at 8, then it is refused 409 with the position to resend from, and nothing of it is stored', async () => {
    const res = await push(JSON.stringify(batch(8, 10)));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ ackedAlterId: 5 });
    const inbox = rig.service.rt.agentInbox.readerFor(AGENT_CONNECTION);
    expect(await inbox.byIds('invoices', ['guid-9', 'guid-10'])).toEqual([]);
  });

  it('given the right credential, when the batch is malformed or names another connection, then 400 or 403', async () => {
    expect((await push('{not json')).status).toBe(400);
    const outside = batch(5, 6, { records: [voucher(9)] });
    expect((await push(JSON.stringify(outside))).status).toBe(400);
    expect((await push(JSON.stringify(batch(5, 6, { connection: 'someone-else' })))).status).toBe(403);
  });

  it('given the credential revoked, when the agent pushes, then it is refused 401; a new credential works and the old one does not', async () => {
    await rig.service.rt.agentCredentials.revoke(AGENT_CONNECTION);
    expect((await push(JSON.stringify(batch(5, 6)))).status).toBe(401);
    const fresh = (await rig.service.rt.agentCredentials.create(AGENT_CONNECTION)).credential;
    expect((await push(JSON.stringify(batch(5, 6)), fresh)).status).toBe(200);
    expect((await push(JSON.stringify(batch(6, 7)))).status).toBe(401);
    credential = fresh;
  });
});
