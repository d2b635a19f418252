import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as stringifyYaml } from 'yaml';
import { LocalQueue } from '../../../cli/tally-agent/local-queue.js';
import { enqueuePullsNow } from '../../../operations/sync-now.js';
import { Cleanups } from '../../support/cleanups.js';
import { runCli, spawnCli } from '../../support/cli.js';
import { waitForDrain } from '../../support/queue-waits.js';
import { testPrefix } from '../../support/redis.js';
import { billingInvoicesOf, compareWithSource } from '../../support/source-comparison.js';
import { type Passed, startAckHoldingProxy } from './ack-holding-proxy.js';
import { AGENT_CONNECTION, type AgentRig, COMPANY, ORIGIN, startAgentRig } from './tally-agent-rig.js';

/**
 * The agent as a user runs it (the built CLI, a child process) against the TallyPrime emulator, pushing
 * through a proxy to the real worker. The agent is killed with SIGKILL at the worst moment — the worker
 * has stored a batch whose acknowledgement the agent never heard — then started again on the same state
 * directory: it sends that batch again, goes on from there, and billing ends with every voucher once.
 */
const cleanups = new Cleanups();
let rig: AgentRig;
let proxy: Awaited<ReturnType<typeof startAckHoldingProxy>>;
let stateDir: string;
let credentialFile: string;

beforeAll(async () => {
  rig = await startAgentRig(cleanups, testPrefix('agent-kill'), { invoices: 24, creditNotes: 3, customers: 5 });
  proxy = await startAckHoldingProxy(rig.workerUrl);
  cleanups.add(() => proxy.close());
  const dir = mkdtempSync(join(tmpdir(), 'tally-agent-'));
  stateDir = join(dir, 'state');
  credentialFile = join(dir, 'credential');
  // As a person does it: `erp-sync connect` prints the credential once; it goes into a file on the PC.
  const configFile = join(dir, 'erp-sync.yaml');
  writeFileSync(configFile, stringifyYaml(rig.raw));
  const made = await runCli(['connect', '--connection', AGENT_CONNECTION, '--config', configFile]);
  expect(made.code, made.err).toBe(0);
  const credential = /^ {2}(tally-agent\.[A-Za-z0-9_-]{43})$/m.exec(made.out)?.[1];
  expect(credential, made.out).toBeDefined();
  writeFileSync(credentialFile, `${credential}\n`);
}, 120_000);
afterAll(() => cleanups.run());

const agentArgs = () => [
  'tally-agent',
  ...['--url', proxy.url, '--connection', AGENT_CONNECTION, '--credential-file', credentialFile],
  ...['--tally', rig.tally.url, '--company', rig.tally.companyName, '--state-dir', stateDir],
  ...['--poll-seconds', '1', '--range-size', '4', '--encoding', 'utf-8'],
];
const range = (p: Passed) => `${p.batch.entity} ${p.batch.fromAlterId}..${p.batch.toAlterId}`;
/** A heartbeat (an empty range) past the start: a poll found nothing new, everything Tally holds is pushed. */
const caughtUp = (p: Passed) =>
  p.batch.fromAlterId === p.batch.toAlterId && p.batch.fromAlterId > 0 && p.status === 200;

describe('erp-sync tally-agent killed mid-batch', () => {
  it('given --version, then it prints the version line and exits 0 without any other option', async () => {
    const r = await runCli(['tally-agent', '--version']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^erp-sync \d+\.\d+\.\d+.* node v\d+/);
  });

  it('given the worker stored a batch the agent never heard acknowledged, when the agent is killed -9 and started again, then it resends that batch, goes on, and billing holds every voucher exactly once', async () => {
    // The second batch of invoices with records: stored by the worker, its answer kept from the agent.
    let invoiceBatches = 0;
    proxy.holdAckOf((b) => b.entity === 'invoices' && b.records.length > 0 && ++invoiceBatches === 2);
    const first = spawnCli(agentArgs(), { env: { LOG_LEVEL: 'info' } });
    const held = await proxy.waitFor((p) => p.held);
    expect(held.status).toBe(200);
    first.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');
    // The batch is still in the agent's queue: it was never acknowledged to the agent.
    const queued = (await new LocalQueue(stateDir).pending()).map((q) => q.batch);
    expect(queued.map((b) => `${b.entity} ${b.fromAlterId}..${b.toAlterId}`)).toEqual([range(held)]);

    const restartAt = proxy.passed.length;
    const second = spawnCli(agentArgs(), { env: { LOG_LEVEL: 'info' } });
    await proxy.waitFor(caughtUp, restartAt);
    second.kill('SIGTERM');
    await second.exit;

    // The held batch went twice (before the kill, after the restart), every other range once.
    const sent = proxy.passed.filter((p) => p.batch.records.length > 0).map(range);
    expect(sent.filter((r) => r === range(held))).toHaveLength(2);
    expect(new Set(sent).size).toBe(sent.length - 1);
    expect(await new LocalQueue(stateDir).pending()).toEqual([]);

    // Nothing lost on the way: the worker holds every voucher and ledger Tally has, each once.
    const inbox = rig.service.rt.agentInbox.readerFor(AGENT_CONNECTION);
    const idsOf = async (entity: string) => {
      const all: string[] = [];
      for await (const page of inbox.ids(entity)) all.push(...page);
      return all.sort();
    };
    expect(await idsOf('invoices')).toEqual(
      rig.tally.store
        .invoices()
        .map((v) => v.guid)
        .sort(),
    );
    expect(await idsOf('credit-notes')).toEqual(
      rig.tally.store
        .creditNotes()
        .map((v) => v.guid)
        .sort(),
    );
    expect(await idsOf('customers')).toEqual(
      rig.tally.store
        .customers()
        .map((l) => l.guid)
        .sort(),
    );

    // And on to billing through the unchanged pipeline: every invoice once, as the source says.
    const rt = rig.service.rt;
    await enqueuePullsNow(rt, AGENT_CONNECTION, ['customers', 'invoices', 'credit-notes'], 'now');
    await waitForDrain(rt, [rig.service.workers]);
    const synced = { rt, billing: rig.billing, connectionId: AGENT_CONNECTION, company: COMPANY, origin: ORIGIN };
    const comparison = await compareWithSource(synced);
    expect(comparison.problems).toEqual([]);
    expect(comparison.expected + comparison.quarantinedByMapping.size).toBe(rig.tally.store.invoices().length);
    expect(comparison.expected).toBeGreaterThan(0);
    expect(billingInvoicesOf(synced).size).toBe(comparison.expected);
  }, 120_000);
});
