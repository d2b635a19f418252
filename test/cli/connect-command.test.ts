import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { type BillingEmulator, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { INDIA_COMPANY, QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../sandbox/quickbooks/index.js';
import {
  AUSTRALIA_TENANT_ID,
  DEFAULT_TENANTS,
  INDIA_TENANT_ID,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
} from '../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { requireBinary } from '../ops/support/require-binary.js';
import { type CliRun, expectOneLineError, occupyPort, runCli, spawnCli } from '../support/cli.js';
import { connect as connectRedis, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

/**
 * `erp-sync connect` against each ERP sandbox, as a person runs it: the built CLI prints the vendor's
 * authorize URL, a real headless Chromium opens it and clicks Allow (or Deny) on the sandbox's consent
 * page, the sandbox redirects to the CLI's loopback callback, and the CLI exchanges the code and stores the
 * tokens in Redis, sealed. Then `erp-sync check` runs on those tokens.
 */
const BILLING_KEY = `connect-billing-key-${randomBytes(4).toString('hex')}`;
const ATTACH_KEY = `connect-attach-key-${randomBytes(4).toString('hex')}`;
const TOKEN_KEY = randomBytes(32).toString('base64');

interface Vendor {
  system: 'zoho-books' | 'quickbooks' | 'xero';
  /** The connection's settings without the organisation and without a refresh token. */
  settings: Record<string, unknown>;
  setting: string;
  org: { id: string; name: string };
  /** The live refresh tokens at the sandbox, newest last. */
  live(): string[];
  /** A refresh-token grant at the sandbox's token endpoint: its HTTP status and `error`. */
  refresh(token: string): Promise<{ status: number; error?: string }>;
  revoke(): void;
  close(): Promise<void>;
}

async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; error?: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  return { status: res.status, error: body.error };
}
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});

const VENDORS: Record<string, () => Promise<Vendor>> = {
  async 'zoho-books'() {
    const emu = await startZohoEmulator({
      port: 0,
      seed: 5,
      records: 5,
      customers: 5,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
    const d = ZOHO_SANDBOX_DEFAULTS;
    return {
      system: 'zoho-books',
      settings: {
        clientId: d.clientId,
        clientSecret: d.clientSecret,
        baseUrl: emu.apiBase,
        dailyCallLimit: 0,
        lookupsCacheSeconds: 0,
      },
      setting: 'organizationId',
      org: { id: emu.organizationId, name: emu.store.organization.name },
      live: () => emu.tokens.liveRefreshTokens,
      refresh: (token) =>
        postForm(emu.tokenUrl, {
          grant_type: 'refresh_token',
          client_id: d.clientId,
          client_secret: d.clientSecret,
          refresh_token: token,
        }),
      revoke: () => emu.tokens.revoke(),
      close: () => emu.close(),
    };
  },
  async quickbooks() {
    const emu = await startQuickBooksEmulator({ port: 0, seed: 5, records: 5, customers: 5, creditMemos: 0 });
    const d = QBO_SANDBOX_DEFAULTS;
    return {
      system: 'quickbooks',
      settings: {
        clientId: d.clientId,
        clientSecret: d.clientSecret,
        baseUrl: emu.url,
        tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
        authorizeUrl: `${emu.url}/connect/oauth2`,
        throttleWaitMs: 0,
      },
      setting: 'realmId',
      org: { id: emu.realmId, name: INDIA_COMPANY.name },
      live: () => emu.tokens.liveRefreshTokens,
      refresh: (token) =>
        postForm(
          `${emu.url}/oauth2/v1/tokens/bearer`,
          { grant_type: 'refresh_token', refresh_token: token },
          basic(d.clientId, d.clientSecret),
        ),
      revoke: () => emu.tokens.revoke(),
      close: () => emu.close(),
    };
  },
  async xero() {
    const emu = await startXeroEmulator({ port: 0, seed: 5, records: 5, contacts: 5, creditNotes: 0 });
    const d = XERO_SANDBOX_DEFAULTS;
    return {
      system: 'xero',
      settings: { clientId: d.clientId, clientSecret: d.clientSecret, baseUrl: `${emu.url}/api.xro/2.0` },
      setting: 'tenantId',
      org: { id: INDIA_TENANT_ID, name: DEFAULT_TENANTS[0]!.tenantName },
      live: () => emu.tokens.liveRefreshTokens,
      refresh: (token) =>
        postForm(
          `${emu.url}/connect/token`,
          { grant_type: 'refresh_token', refresh_token: token },
          basic(d.clientId, d.clientSecret),
        ),
      revoke: () => emu.tokens.revoke(),
      close: () => emu.close(),
    };
  },
};

describe('erp-sync connect (the command) against each ERP sandbox', () => {
  let browser: Browser;
  let billing: BillingEmulator;
  let dir: string;
  const redis = connectRedis();
  const prefixes: string[] = [];
  const env = { ERP_SYNC_TOKEN_KEY: TOKEN_KEY };

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: requireBinary('chromium', 'chromium'),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: BILLING_KEY, companyId: 'connect' }],
      attachmentKeys: [{ key: ATTACH_KEY, companyId: 'connect' }],
    });
    dir = await mkdtemp(join(tmpdir(), 'connect-cli-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await billing?.close();
    for (const p of prefixes) await dropPrefix(redis, p);
    await redis.quit();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A config with one connection of `vendor` (settings as given), under a Redis prefix of its own. */
  const writeConfig = async (
    name: string,
    vendor: Vendor,
    settings: Record<string, unknown>,
    prefix: string,
  ): Promise<string> => {
    const file = join(dir, `${name}-${randomBytes(3).toString('hex')}.yaml`);
    const config = {
      billing: { url: billing.url, apiKey: BILLING_KEY, attachmentKey: ATTACH_KEY, baseCurrency: 'INR' },
      redis: { url: TEST_REDIS_URL, prefix },
      connections: [
        {
          id: name,
          system: vendor.system,
          originSource: 'EXTERNAL_SYSTEM_A',
          entities: ['customers', 'invoices'],
          rateBudget: { perMinute: 1_000_000, concurrency: 4 },
          settings,
        },
      ],
    };
    await writeFile(file, toYaml(config));
    return file;
  };
  const newPrefix = (name: string) => {
    const p = `test-connect-${name}-${randomBytes(4).toString('hex')}`;
    prefixes.push(p);
    return p;
  };

  /** Opens the authorize URL in Chromium, optionally changes the form, clicks `button`; returns the text of the page the browser ends on. */
  const consent = async (
    url: string,
    button: 'Allow' | 'Deny',
    change?: (page: import('playwright-core').Page) => Promise<void>,
  ): Promise<string> => {
    const page = await browser.newPage();
    try {
      const res = await page.goto(url);
      expect(res!.status()).toBe(200);
      if (change) await change(page);
      await Promise.all([
        page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/),
        page.getByRole('button', { name: button }).click(),
      ]);
      return await page.locator('body').innerText();
    } finally {
      await page.close();
    }
  };

  /** Starts `connect`, waits for the URL it prints, and returns it with the running command. */
  const startConnect = async (config: string, name: string, extra: string[] = []) => {
    const cli = spawnCli(
      ['connect', '--connection', name, '--config', config, '--no-browser', '--port', '0', ...extra],
      { env, timeoutMs: 60_000 },
    );
    const [, url] = await cli.waitForOutput(/^ {2}(http:\/\/\S+)$/m);
    return { cli, url: url! };
  };

  /** The stored token hash of a connection. */
  const tokenHash = (prefix: string, key: string) => redis.hgetall(`${prefix}:token:${key}`);

  /** Every string value under a prefix (strings, hashes, lists, sets, zsets), for "no secret in Redis" checks. */
  const everyValue = async (prefix: string): Promise<string[]> => {
    const values: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      for (const k of keys) {
        const type = await redis.type(k);
        if (type === 'string') values.push((await redis.get(k)) ?? '');
        else if (type === 'hash') values.push(...Object.values(await redis.hgetall(k)));
        else if (type === 'list') values.push(...(await redis.lrange(k, 0, -1)));
        else if (type === 'set') values.push(...(await redis.smembers(k)));
        else if (type === 'zset') values.push(...(await redis.zrange(k, 0, -1)));
      }
    } while (cursor !== '0');
    return values;
  };

  const check = (config: string, name: string): Promise<CliRun> =>
    runCli(['check', '--connection', name, '--config', config], { env, timeoutMs: 30_000 });

  for (const system of ['zoho-books', 'quickbooks', 'xero'] as const) {
    describe(system, () => {
      let vendor: Vendor;
      beforeAll(async () => {
        vendor = await VENDORS[system]!();
      });
      afterAll(async () => {
        await vendor?.close();
      });

      it('given a connection without tokens, when the person allows access in the browser, then the tokens are stored sealed, the organisation and config lines are printed, and check passes on them; a second consent replaces them', async () => {
        const name = `${system}-conn`;
        const prefix = newPrefix(system);
        // Xero: the config names the tenant; the others learn it from the grant.
        const settings = system === 'xero' ? { ...vendor.settings, tenantId: INDIA_TENANT_ID } : vendor.settings;
        const config = await writeConfig(name, vendor, settings, prefix);

        const { cli, url } = await startConnect(config, name);
        expect(await consent(url, 'Allow')).toContain('Authorised');
        const r = await cli.exit;
        expect(r.code, r.err + r.out).toBe(0);
        expect(r.out).toContain(`${name}: authorised; tokens stored (sealed under key `);
        expect(r.out).not.toContain('replacing');
        expect(r.out).toMatch(
          new RegExp(`^ {2}\\* ${vendor.org.id} {2}${vendor.org.name.replace(/[()]/g, '\\$&')} {2}← ${name}$`, 'm'),
        );
        const line =
          system === 'xero' ? `${vendor.setting}: ${vendor.org.id}` : `${vendor.setting}: "${vendor.org.id}"`;
        expect(r.out).toContain(`\n  ${line}\n`);

        // The grant's refresh token is in Redis sealed, and in no value in plain text.
        const granted = vendor.live().at(-1)!;
        const stored = await tokenHash(prefix, name);
        expect(TokenSealer.sealedUnder(stored.refreshToken!)).not.toBe('plain');
        for (const v of await everyValue(prefix)) expect(v).not.toContain(granted);
        expect(r.out + r.err).not.toContain(granted);

        // The printed line completes the config; check works on the stored tokens alone (no refreshToken in the config).
        const complete = await writeConfig(name, vendor, { ...settings, [vendor.setting]: vendor.org.id }, prefix);
        const first = await check(complete, name);
        expect(first.code, first.err + first.out).toBe(0);

        // Re-consent: a second connect replaces the stored tokens.
        const before = await tokenHash(prefix, name);
        const old = vendor.live().at(-1)!;
        const again = await startConnect(complete, name);
        await consent(again.url, 'Allow');
        const r2 = await again.cli.exit;
        expect(r2.code, r2.err + r2.out).toBe(0);
        expect(r2.out).toContain('replacing the ones stored before');
        const after = await tokenHash(prefix, name);
        expect(after.refreshToken).not.toBe(before.refreshToken);
        const fresh = vendor.live().at(-1)!;
        expect(fresh).not.toBe(old);
        if (system === 'zoho-books') {
          // Zoho keeps a user's earlier refresh tokens (up to 20): the old one still refreshes.
          expect((await vendor.refresh(old)).error).toBeUndefined();
        } else {
          // QuickBooks and Xero: one grant per app and company; the earlier refresh token is refused.
          expect(await vendor.refresh(old)).toEqual({ status: 400, error: 'invalid_grant' });
        }
        const second = await check(complete, name);
        expect(second.code, second.err + second.out).toBe(0);
      }, 90_000);

      it('given the person denies access, then connect exits 1 with one line saying so and stores nothing', async () => {
        const name = `${system}-deny`;
        const prefix = newPrefix(`${system}-deny`);
        const config = await writeConfig(
          name,
          vendor,
          system === 'xero' ? { ...vendor.settings, tenantId: INDIA_TENANT_ID } : vendor.settings,
          prefix,
        );
        const { cli, url } = await startConnect(config, name);
        expect(await consent(url, 'Deny')).toContain('Not authorised');
        const r = await cli.exit;
        expect(r.code, r.out).toBe(1);
        expect(r.err.trim()).toBe(
          `erp-sync: connect ${name}: consent was denied at the vendor (access_denied); nothing stored`,
        );
        expect(await tokenHash(prefix, name)).toEqual({});
      }, 60_000);
    });
  }

  describe('refusals', () => {
    let vendor: Vendor;
    beforeAll(async () => {
      vendor = await VENDORS.xero!();
    });
    afterAll(async () => {
      await vendor?.close();
    });

    it('given a redirect whose state is not the one sent, then connect refuses it, exits 1 and stores nothing', async () => {
      const name = 'xero-state';
      const prefix = newPrefix('state');
      const config = await writeConfig(name, vendor, { ...vendor.settings, tenantId: INDIA_TENANT_ID }, prefix);
      const { cli, url } = await startConnect(config, name);
      const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
      redirect.search = new URLSearchParams({ code: 'forged-code', state: 'not-the-state' }).toString();
      const res = await fetch(redirect);
      expect(res.status).toBe(400);
      const r = await cli.exit;
      expect(r.code).toBe(1);
      expect(r.err.trim()).toBe(
        `erp-sync: connect ${name}: the redirect's state does not match this request (a stale or forged redirect): refused; nothing stored`,
      );
      expect(await tokenHash(prefix, name)).toEqual({});
    }, 60_000);

    it('given a Xero grant that reaches two tenants and no tenant chosen, then connect lists both, refuses to choose, exits 1 and stores nothing', async () => {
      const name = 'xero-two';
      const prefix = newPrefix('two');
      const config = await writeConfig(name, vendor, vendor.settings, prefix);
      const { cli, url } = await startConnect(config, name);
      // Both organisations stay ticked on the consent page.
      await consent(url, 'Allow');
      const r = await cli.exit;
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`  ${INDIA_TENANT_ID}  ${DEFAULT_TENANTS[0]!.tenantName}\n`);
      expect(r.out).toContain(`  ${AUSTRALIA_TENANT_ID}  ${DEFAULT_TENANTS[1]!.tenantName}\n`);
      expect(r.err.trim()).toBe(
        `erp-sync: connect ${name}: this grant reaches 2 organisations: choose one with --tenant ID (or settings.tenantId) and run connect again; nothing stored`,
      );
      expect(await tokenHash(prefix, name)).toEqual({});

      // Chosen with --tenant: stored, and the config line names that tenant.
      const chosen = await startConnect(config, name, ['--tenant', AUSTRALIA_TENANT_ID]);
      await consent(chosen.url, 'Allow');
      const ok = await chosen.cli.exit;
      expect(ok.code, ok.err + ok.out).toBe(0);
      expect(ok.out).toContain(`\n  tenantId: ${AUSTRALIA_TENANT_ID}\n`);
      expect((await tokenHash(prefix, name)).refreshToken).toBeTruthy();
    }, 60_000);

    it('given a redirect URI this command cannot listen on, an unknown connection, or a port in use, then exit 2 in one line, before any consent', async () => {
      const name = 'xero-usage';
      const config = await writeConfig(
        name,
        vendor,
        { ...vendor.settings, tenantId: INDIA_TENANT_ID },
        newPrefix('usage'),
      );
      const run = (args: string[]) => runCli(['connect', '--config', config, '--no-browser', ...args], { env });
      expect(
        expectOneLineError(await run(['--connection', name, '--redirect-uri', 'https://app.example.com/callback'])),
      ).toBe(
        'erp-sync: --redirect-uri must be a loopback address with a port, such as http://127.0.0.1:8976/callback (this command listens on it), got "https://app.example.com/callback"',
      );
      expect(expectOneLineError(await run(['--connection', 'nope']))).toBe(
        `erp-sync: unknown connection "nope" (configured: ${name})`,
      );
      const taken = await occupyPort();
      try {
        const r = await run(['--connection', name, '--redirect-uri', `http://127.0.0.1:${taken.port}/callback`]);
        expect(expectOneLineError(r)).toBe(
          `erp-sync: the callback cannot listen: port ${taken.port} is already in use on 127.0.0.1; choose another port with --port or --redirect-uri (and register that redirect URI with the vendor app)`,
        );
        expect(r.out).toBe('');
      } finally {
        await taken.close();
      }
    }, 60_000);

    it('given the browser never comes back, then connect gives up after --timeout, exits 1 and stores nothing', async () => {
      const name = 'xero-timeout';
      const prefix = newPrefix('timeout');
      const config = await writeConfig(name, vendor, { ...vendor.settings, tenantId: INDIA_TENANT_ID }, prefix);
      const { cli } = await startConnect(config, name, ['--timeout', '1']);
      const r = await cli.exit;
      expect(r.code).toBe(1);
      expect(r.err.trim()).toBe(
        `erp-sync: connect ${name}: no answer from the browser within 1 s; nothing stored (run connect again)`,
      );
    }, 30_000);
  });

  describe('a QuickBooks company other than the configured one', () => {
    let vendor: Vendor;
    beforeAll(async () => {
      vendor = await VENDORS.quickbooks!();
    });
    afterAll(async () => {
      await vendor?.close();
    });

    it('given the config names realm 1111 and the person picks the sandbox company, then connect lists what the grant reaches, stores nothing and exits 1', async () => {
      const name = 'qbo-other';
      const prefix = newPrefix('other');
      const config = await writeConfig(name, vendor, { ...vendor.settings, realmId: '1111' }, prefix);
      const { cli, url } = await startConnect(config, name);
      await consent(url, 'Allow');
      const r = await cli.exit;
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`  ${vendor.org.id}  ${vendor.org.name}\n`);
      expect(r.err.trim()).toBe(
        `erp-sync: connect ${name}: realmId 1111 is not among the organisations this grant reaches; nothing stored`,
      );
      expect(await tokenHash(prefix, name)).toEqual({});
    }, 60_000);
  });
});
