import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { tokenStatus } from '../../cli/commands/token.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

type Status = Awaited<ReturnType<typeof tokenStatus>>;

const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');

/** `erp-sync token status|reset --connection ID`, `erp-sync token rekey`, and the worker's word on unencrypted tokens. */
describe('erp-sync token (the command)', () => {
  let p: Harness;
  const cli = async (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCli(['token', ...args, '--config', await p.configFile()], { env: { ...p.secretEnv, ...env } });
  const status = async (env: Record<string, string> = {}): Promise<Status> => {
    const r = await cli(['status', '--connection', CONNECTION, '--json'], env);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as Status;
  };
  const hash = () => p.redis.hgetall(`${p.prefix}:token:${CONNECTION}`);

  beforeAll(async () => {
    p = await startHarness({ name: 'token-cli', invoices: 5 });
  });
  afterAll(() => p?.close());

  it('given a worker started without a token key, then it says once, at start, that tokens are stored unencrypted', async () => {
    const worker = await p.spawnWorker(['pull']);
    await worker.waitForOutput('OAuth tokens are stored unencrypted');
    worker.kill('SIGTERM');
    await worker.exited;
    expect(worker.output().split('OAuth tokens are stored unencrypted').length - 1).toBe(1);
  });

  it('given tokens in plain text, when status is asked, then it shows the grant, the expiry, the last refresh and "plain text", never a token', async () => {
    await p.rt
      .vendorClient(CONNECTION)
      .request({ path: 'organizations', endpoint: 'GET /organizations', schema: z.any() });
    const s = await status();
    expect(s).toMatchObject({
      connection: CONNECTION,
      tokenKey: CONNECTION,
      stored: true,
      credentialsOk: true,
      lastFailure: null,
      sealedUnder: 'plain',
    });
    expect(Date.parse(s.accessToken!.expiresAt!)).toBeGreaterThan(Date.now());
    expect(s.lastRefresh).not.toBeNull();
    const text = await cli(['status', '--connection', CONNECTION]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('  credentials   ok\n');
    expect(text.out).toMatch(/ {2}at rest {7}plain text \(set ERP_SYNC_TOKEN_KEY; then erp-sync token rekey\)/);
    const { accessToken, refreshToken } = await hash();
    for (const secret of [accessToken!, refreshToken!, p.secrets.zohoRefreshToken])
      expect(text.out + JSON.stringify(s)).not.toContain(secret);
  });

  it('given stored tokens, when reset, then they are gone and the next call seeds them from the config', async () => {
    const r = await cli(['reset', '--connection', CONNECTION], {});
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      `${CONNECTION}: stored tokens removed; the next call seeds them from the config's refreshToken`,
    );
    expect((await status()).stored).toBe(false);
    expect((await cli(['status', '--connection', CONNECTION])).out).toContain(
      'none stored: the next use seeds them from the config',
    );
    await p.rt
      .vendorClient(CONNECTION)
      .request({ path: 'organizations', endpoint: 'GET /organizations', schema: z.any() });
    expect((await status()).stored).toBe(true);
  });

  it('given a key set, when rekey runs, then every plain token is sealed under it; after a rotation, rekey with the old key moves them to the new one', async () => {
    expect(expectOneLineError(await cli(['rekey']))).toMatch(/token rekey needs ERP_SYNC_TOKEN_KEY/);

    const first = await cli(['rekey'], { ERP_SYNC_TOKEN_KEY: OLD_KEY });
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/re-sealed 2 token value\(s\) under key \w+; 0 already were/);
    expect((await hash()).refreshToken).not.toContain(p.secrets.zohoRefreshToken);
    expect((await status({ ERP_SYNC_TOKEN_KEY: OLD_KEY })).sealedUnder).toBe(
      TokenSealer.withKeys(OLD_KEY).currentKeyId,
    );

    // Without the key that sealed them, the tokens do not open: status still works (it reads no token).
    expect((await status({ ERP_SYNC_TOKEN_KEY: NEW_KEY })).sealedUnder).toBe(
      TokenSealer.withKeys(OLD_KEY).currentKeyId,
    );

    const rotated = await cli(['rekey'], { ERP_SYNC_TOKEN_KEY: NEW_KEY, ERP_SYNC_TOKEN_KEYS_OLD: OLD_KEY });
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toMatch(/re-sealed 2 token value\(s\)/);
    const sealed = await hash();
    expect(TokenSealer.withKeys(NEW_KEY).open(sealed.refreshToken!, `${CONNECTION}:refreshToken`)).toBe(
      p.secrets.zohoRefreshToken,
    );
    expect(() => TokenSealer.withKeys(OLD_KEY).open(sealed.refreshToken!, `${CONNECTION}:refreshToken`)).toThrow(
      /neither/,
    );
  });

  it('given a malformed key, then the command refuses to run with one line naming the variable, not its value', async () => {
    const r = await cli(['rekey'], { ERP_SYNC_TOKEN_KEY: 'not-base64-secretish' });
    const line = expectOneLineError(r);
    expect(line).toContain('ERP_SYNC_TOKEN_KEY');
    expect(line).not.toContain('not-base64-secretish');
  });

  it('given no --connection, or an unknown one, then a one-line usage error', async () => {
    expect(expectOneLineError(await cli(['status']))).toMatch(/--connection/);
    expect(expectOneLineError(await cli(['reset', '--connection', 'nope']))).toMatch(/unknown connection "nope"/);
  });
});
