import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSessions } from '../../src/pipeline/console-sessions.js';
import { expectOneLineError, runCli } from '../support/cli.js';
import { type Harness, startHarness } from '../support/harness.js';

const TOKEN = 'rotating-token-0123456789abcdef';

/** `erp-sync console sessions end --token NAME`, against the deployment's Redis. */
describe('erp-sync console sessions end (the command)', () => {
  let p: Harness;
  const cli = async (args: string[]) =>
    runCli(['console', 'sessions', ...args, '--config', await p.configFile()], { env: p.secretEnv });

  beforeAll(async () => {
    p = await startHarness({ name: 'console-cli', invoices: 1 });
  });
  afterAll(() => p?.close());

  it('given two console sessions of one token and one of another, when the command ends that token, then both of its sessions end, it says how many, and the other session lives', async () => {
    const sessions = new ConsoleSessions(p.redis, p.prefix);
    const mine = [await sessions.open('rotating', TOKEN), await sessions.open('rotating', TOKEN)];
    const other = await sessions.open('auditor', `${TOKEN}-auditor`);

    const r = await cli(['end', '--token', 'rotating']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('rotating: 2 console session(s) ended; its next sign-in opens a new one\n');
    for (const s of mine) expect(await sessions.get(s.id, () => TOKEN)).toBeUndefined();
    expect(await sessions.get(other.id, () => `${TOKEN}-auditor`)).toMatchObject({ name: 'auditor' });
    expect((await cli(['end', '--token', 'rotating'])).out).toMatch(/^rotating: 0 console session\(s\) ended/);
  });

  it('given no token name, or one the config could not hold, then a one-line usage error', async () => {
    expect(expectOneLineError(await cli(['end']))).toMatch(/--token/);
    expect(expectOneLineError(await cli(['end', '--token', 'a b*']))).toMatch(/is not a token name/);
  });
});
