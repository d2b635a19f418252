import type { Command } from 'commander';
import type { Runtime } from '../../jobs/runtime.js';
import { tokenKeyOf } from '../../src/auth/token-key.js';
import { OLD_TOKEN_KEYS_ENV, TOKEN_KEY_ENV } from '../../src/auth/token-sealer.js';
import { ConfigError } from '../../src/errors/index.js';
import { loadAppConfig, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import { configuredConnection } from './connections.js';

type TokenRuntime = Pick<Runtime, 'connection' | 'tokens' | 'quotas'>;

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/** What `erp-sync token status` shows of a connection's tokens: instants and states, never a token. */
export async function tokenStatus(rt: TokenRuntime, connection: string, now = Date.now()) {
  const key = tokenKeyOf(rt.connection(connection));
  const s = await rt.tokens.describe(key);
  const parked = await rt.quotas.parkedUntil(connection);
  return {
    connection,
    /** The token store entry: the connection, or the group of connections sharing one authorisation. */
    tokenKey: key,
    stored: s.hasRefreshToken,
    /** When the current grant's refresh token entered the store, and how long ago. */
    grantedAt: iso(s.grantedAt),
    ageSeconds: s.grantedAt ? Math.max(0, Math.round((now - s.grantedAt) / 1000)) : null,
    accessToken: s.hasAccessToken ? { expiresAt: iso(s.expiresAt), expired: (s.expiresAt ?? 0) <= now } : null,
    lastRefresh: iso(s.rotatedAt),
    lastFailure: s.failedAt ? { at: iso(s.failedAt), failure: s.failure ?? null } : null,
    credentialsOk: s.failedAt === undefined,
    parkedUntil: iso(parked),
    /** `plain`, or the id of the key the tokens are sealed under. */
    sealedUnder: s.sealedUnder ?? null,
  };
}

function print(t: Awaited<ReturnType<typeof tokenStatus>>): void {
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(14)}${value}`);
  console.log(`${t.connection}${t.tokenKey === t.connection ? '' : ` (token group ${t.tokenKey})`}`);
  if (!t.stored) return void row('tokens', 'none stored: the next use seeds them from the config');
  row(
    'credentials',
    t.credentialsOk ? 'ok' : `REFUSED by the vendor: re-authorise the connection (docs/operations.md)`,
  );
  row(
    'granted',
    `${t.grantedAt ?? 'before this version recorded it'}${t.ageSeconds === null ? '' : ` (${Math.round(t.ageSeconds / 86_400)} d ago)`}`,
  );
  row(
    'access token',
    t.accessToken
      ? `${t.accessToken.expired ? 'expired' : 'expires'} ${t.accessToken.expiresAt}`
      : 'none (the next call refreshes)',
  );
  row('last refresh', t.lastRefresh ?? 'never');
  row('last failure', t.lastFailure ? `${t.lastFailure.at}: ${t.lastFailure.failure}` : 'none');
  if (t.parkedUntil) row('parked until', t.parkedUntil);
  row(
    'at rest',
    t.sealedUnder === 'plain'
      ? `plain text (set ${TOKEN_KEY_ENV}; then erp-sync token rekey)`
      : `sealed under key ${t.sealedUnder}`,
  );
}

/**
 * Forgets a connection's stored tokens, so its next use seeds them from the config; a park set because
 * the vendor refused the old token is lifted with them (the new token is tried at once).
 */
export async function resetTokens(
  rt: TokenRuntime,
  connection: string,
): Promise<{ tokenKey: string; removed: boolean; unparked: boolean }> {
  const key = tokenKeyOf(rt.connection(connection));
  const refused = (await rt.tokens.describe(key)).failedAt !== undefined;
  const removed = await rt.tokens.reset(key);
  const unparked = refused ? await rt.quotas.unpark(connection) : false;
  return { tokenKey: key, removed, unparked };
}

const configOption = (c: Command) =>
  c.option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

/** `erp-sync token status|reset --connection ID`, `erp-sync token rekey`. */
export function registerTokenCommand(program: Command): void {
  const token = program
    .command('token')
    .description("a connection's OAuth tokens: status (never a token), reset, rekey");

  configOption(
    token
      .command('status')
      .description(
        'age of the grant, access-token expiry, last refresh, last failure, and how the tokens are kept at rest; never a token',
      )
      .addOption(requiredOption('--connection <id>', 'connection id from the config'))
      .option('--json', 'print JSON'),
  ).action(async (o: { connection: string; json?: boolean; config?: string }) => {
    configuredConnection(await loadAppConfig(o.config), o.connection);
    await withRuntime(o.config, async (rt) => {
      const t = await tokenStatus(rt, o.connection);
      if (o.json) return void console.log(JSON.stringify(t, null, 2));
      print(t);
    });
  });

  configOption(
    token
      .command('reset')
      .description("forget the connection's stored tokens: its next call seeds them from the config's refreshToken")
      .addOption(requiredOption('--connection <id>', 'connection id from the config')),
  ).action(async (o: { connection: string; config?: string }) => {
    configuredConnection(await loadAppConfig(o.config), o.connection);
    await withRuntime(o.config, async (rt) => {
      const r = await resetTokens(rt, o.connection);
      const group = r.tokenKey === o.connection ? '' : ` (token group ${r.tokenKey}: every connection of the group)`;
      if (!r.removed)
        return void console.log(`${o.connection}: no tokens stored${group}; the next call seeds them from the config`);
      console.log(
        `${o.connection}: stored tokens removed${group}; the next call seeds them from the config's refreshToken${r.unparked ? '; park lifted' : ''}`,
      );
    });
  });

  configOption(
    token
      .command('rekey')
      .description(
        `re-seal every stored token under ${TOKEN_KEY_ENV} (tokens sealed under ${OLD_TOKEN_KEYS_ENV}, or plain text)`,
      ),
  ).action(async (o: { config?: string }) => {
    await withRuntime(o.config, async (rt) => {
      const kid = rt.tokens.sealer.currentKeyId;
      if (!kid)
        throw new ConfigError(
          `token rekey needs ${TOKEN_KEY_ENV} (the key to seal under; the old ones in ${OLD_TOKEN_KEYS_ENV})`,
        );
      const r = await rt.tokens.rekey();
      console.log(
        `re-sealed ${r.resealed} token value(s) under key ${kid}; ${r.current} already were. ${OLD_TOKEN_KEYS_ENV} can now drop the old keys.`,
      );
    });
  });
}
