import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

const ID = 'zoho-cli';
/** The key the command seals with, as a deployment sets it. */
const tokenKey = randomBytes(32).toString('base64');

/**
 * `erp-sync connections add FILE`, `set ID FILE`, `remove ID [--purge]`: the built CLI against the
 * harness's Redis, through the same operations as the API (stored in Redis, audited, YAML ones read-only).
 */
describe('erp-sync connections add, set, remove (the command)', () => {
  let p: Harness;
  let dir: string;
  const cli = async (args: string[]): Promise<CliRun> =>
    runCli(['connections', ...args, '--config', await p.configFile(), '--by', 'cli-tester'], {
      env: { ...p.secretEnv, ERP_SYNC_TOKEN_KEY: tokenKey },
    });
  const file = async (name: string, v: unknown) => {
    const path = join(dir, name);
    await writeFile(path, toYaml(v));
    return path;
  };

  beforeAll(async () => {
    p = await startHarness({ name: 'connections-data-cli', invoices: 3 });
    dir = await mkdtemp(join(tmpdir(), 'connections-data-'));
  });
  afterAll(async () => {
    await p?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The YAML connection's settings (`${VAR}` references) without its grant, under another id and origin. */
  function entry(changes: Record<string, unknown> = {}) {
    const first = p.rawConfig.connections[0]!;
    const { refreshToken: _grant, ...settings } = first.settings as Record<string, unknown>;
    return { id: ID, system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_C', settings, webhooks: {}, ...changes };
  }

  it('when a connection is added from a YAML file, then it is stored, its webhook secret printed once, and the action audited', async () => {
    const r = await cli(['add', await file('new.yaml', entry())]);

    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${ID}: created`);
    const secret = /webhook secret \(shown this once; set it at the vendor\): ([0-9a-f]{48})/.exec(r.out)?.[1];
    expect(secret).toBeDefined();
    const stored = await p.rt.storedConnections.get(ID);
    expect(stored).toMatchObject({ id: ID, createdBy: 'cli-tester', raw: entry() });
    // Stored sealed under the deployment's key, never as it was printed.
    expect(stored?.webhookSecret).toMatch(/^sealed:v1:/);
    expect(stored?.webhookSecret).not.toContain(secret!);
    const audit = await p.rt.audit.list({ limit: 10 });
    expect(audit.find((e) => e.action === 'connections.create')).toMatchObject({
      who: 'cli-tester',
      connection: ID,
      outcome: 'ok',
    });
  });

  it('when it is set from a patch file, then the stored entry is merged; a YAML connection cannot be added again or set', async () => {
    const r = await cli(['set', ID, await file('patch.yaml', { schedule: { everySeconds: 900 }, webhooks: null })]);

    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${ID}: changed schedule, webhooks`);
    const stored = await p.rt.storedConnections.get(ID);
    expect(stored?.raw).toMatchObject({ schedule: { everySeconds: 900 } });
    expect(stored?.raw.webhooks).toBeUndefined();
    expect(stored?.webhookSecret).toBeUndefined();

    expect(expectOneLineError(await cli(['add', await file('clash.yaml', entry({ id: CONNECTION }))]))).toContain(
      'YAML',
    );
    expect(
      expectOneLineError(await cli(['set', CONNECTION, await file('p2.yaml', { entities: ['invoices'] })])),
    ).toContain('read-only');
    expect(
      expectOneLineError(
        await cli(['add', await file('secret.yaml', entry({ id: 'zoho-x', settings: { clientSecret: 'literal' } }))]),
      ),
    ).toContain('settings.clientSecret');
  });

  it('when it is removed, then its state is kept until the retention; removed again with --purge, its state and entry are gone', async () => {
    await p.rt.syncStatus.recordSuccess(ID, 'invoices', 1_700_000_000_000);
    const r = await cli(['remove', ID]);

    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      new RegExp(
        `^${ID}: removed; 0 scheduler\\(s\\) and 0 queued job\\(s\\) stopped; state kept until \\S+ \\(--purge`,
      ),
    );
    expect((await p.rt.storedConnections.get(ID))?.removedBy).toBe('cli-tester');
    expect((await p.rt.syncStatus.read(ID)).lastSuccess.invoices).toBe(1_700_000_000_000);

    const purged = await cli(['remove', ID, '--purge']);
    expect(purged.code, purged.err).toBe(0);
    expect(purged.out).toMatch(/state purged \([1-9]\d* key\(s\)\)/);
    expect(await p.rt.storedConnections.get(ID)).toBeUndefined();
    expect((await p.rt.syncStatus.read(ID)).lastSuccess.invoices).toBeUndefined();
  });
});
