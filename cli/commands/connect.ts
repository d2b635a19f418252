import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Command, Option } from 'commander';
import { availableSystems, connectorFor, validateSettings } from '../../connectors/registry.js';
import { openRuntime } from '../../app/create-runtime.js';
import { AuthorizationRefused, redeemGrant } from '../../operations/redeem-grant.js';
import { storeGrant } from '../../operations/store-grant.js';
import type { AuthorizationFlow, GrantOrganisation } from '../../src/auth/authorization-flow.js';
import { type CallbackPage, startCallbackServer } from '../../src/auth/callback-server.js';
import { type AuthorizationResponse, readAuthorizationResponse } from '../../src/auth/authorization-response.js';
import { newState } from '../../src/auth/oauth-state.js';
import { newPkce } from '../../src/auth/pkce.js';
import { tokenKeyOf } from '../../src/auth/token-key.js';
import { TOKEN_KEY_ENV } from '../../src/auth/token-sealer.js';
import {
  type AppConfig,
  type ConnectionConfig,
  loadConfig,
  type SettingsValidator,
  configIssues,
} from '../../src/config.js';
import { ConfigError } from '../../src/errors/index.js';
import { ListenError } from '../../src/http/listen.js';
import { createLogger } from '../../src/observability/logger.js';
import { configPath } from '../context.js';
import { intOption, MAX_PORT } from '../parse-args.js';
import { requiredOption } from '../required-option.js';
import { connectAgent } from './connect-agent.js';

/** The loopback port the callback listens on unless told otherwise (the redirect URI registered with the vendor app names it). */
export const DEFAULT_CALLBACK_PORT = 8976;
/** How long to wait for the browser to come back, seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

export interface ConnectOptions {
  connection: string;
  config?: string;
  redirectUri?: string;
  port?: number;
  /** commander's `--no-browser`: false when given. */
  browser: boolean;
  tenant?: string;
  timeout: number;
}

/** Why a connect ended without storing anything: one line on stderr, exit 1. */
class ConnectRefused extends Error {}

/**
 * The config as `connect` reads it: a connection's organisation setting may be missing (the grant is how
 * one finds it), so each connector's `authorization.settings` schema validates its settings.
 */
const connectSettings: SettingsValidator = (system, settings) => {
  if (!availableSystems().includes(system)) return validateSettings(system, settings);
  const c = connectorFor(system);
  const r = (c.authorization?.settings ?? c.settings).safeParse(settings);
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: configIssues(r.error) };
};

/** Where the vendor sends the browser back, and where we listen for it. */
function callbackAddress(o: Pick<ConnectOptions, 'redirectUri' | 'port'>): {
  host: string;
  port: number;
  path: string;
  fixed?: string;
} {
  if (!o.redirectUri) return { host: '127.0.0.1', port: o.port ?? DEFAULT_CALLBACK_PORT, path: '/callback' };
  let url: URL;
  try {
    url = new URL(o.redirectUri);
  } catch {
    throw new ConfigError(
      `--redirect-uri expects a URL such as http://127.0.0.1:${DEFAULT_CALLBACK_PORT}/callback, got "${o.redirectUri}"`,
    );
  }
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || !url.port)
    throw new ConfigError(
      `--redirect-uri must be a loopback address with a port, such as http://127.0.0.1:${DEFAULT_CALLBACK_PORT}/callback (this command listens on it), got "${o.redirectUri}"`,
    );
  const port = Number(url.port);
  if (o.port !== undefined && o.port !== port)
    throw new ConfigError(`--port ${o.port} and --redirect-uri port ${port} differ; give one of them`);
  return { host: url.hostname === '[::1]' ? '::1' : '127.0.0.1', port, path: url.pathname, fixed: o.redirectUri };
}

/** Opens a URL with the desktop's opener when there is one on PATH; otherwise the printed URL is all there is. */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? undefined : 'xdg-open';
  if (!opener) return;
  const found = (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, opener), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) return;
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The printed URL still works.
  }
}

function pageFor(outcome: AuthorizationResponse): CallbackPage {
  if ('refused' in outcome)
    return {
      status: 400,
      title: 'Not authorised',
      message: `erp-sync: ${outcome.refused}. Nothing was stored; see the terminal.`,
    };
  return {
    status: 200,
    title: 'Authorised',
    message: 'erp-sync received the authorisation. You can close this window and return to the terminal.',
  };
}

/** The organisation this connection is for: the one asked for, the only one, or none (the person must choose). */
function choose(orgs: GrantOrganisation[], wanted: string | undefined, setting: string): GrantOrganisation {
  const list = () => orgs.map((g) => `  ${g.id}  ${g.name}`).join('\n');
  if (orgs.length === 0) throw new ConnectRefused('the grant reaches no organisation; nothing stored');
  if (wanted !== undefined) {
    const found = orgs.find((g) => g.id.toLowerCase() === wanted.toLowerCase());
    if (found) return found;
    console.log(`organisations this grant reaches:\n${list()}`);
    throw new ConnectRefused(`${setting} ${wanted} is not among the organisations this grant reaches; nothing stored`);
  }
  if (orgs.length === 1) return orgs[0]!;
  console.log(`organisations this grant reaches:\n${list()}`);
  throw new ConnectRefused(
    `this grant reaches ${orgs.length} organisations: choose one with --tenant ID (or settings.${setting}) and run connect again; nothing stored`,
  );
}

const yamlValue = (v: string) => (/^[0-9]+$/.test(v) ? `"${v}"` : v);

/**
 * `erp-sync connect`: the vendor's OAuth 2.0 authorization-code flow for one connection. Listens on a
 * loopback callback, prints the vendor's authorize URL (and opens it when the desktop can), checks `state`
 * (and PKCE where the vendor supports it) on the way back, exchanges the code, reads which organisations
 * the grant reaches, and — once the connection's organisation is known — puts the new tokens in the token
 * store in place of the old ones. Returns the exit code: 0 stored, 1 refused or timed out (nothing stored).
 */
export async function runConnect(o: ConnectOptions): Promise<number> {
  const { config, conn, connector, flow, settings } = await connectionToAuthorise(o);
  const address = callbackAddress(o);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', stderr: true });
  // Redis first: a person should not consent for tokens that cannot be stored.
  const rt = await openRuntime(config, logger, { allowEmbedded: false, patient: true });
  const state = newState();
  const pkce = flow.pkce ? newPkce() : undefined;
  let server: CallbackServer | undefined;
  try {
    server = await listenForCallback(address, state);
    const redirectUri = address.fixed ?? `http://127.0.0.1:${server.port}${address.path}`;
    const url = flow.authorizeUrl(settings, { redirectUri, state, codeChallenge: pkce?.challenge });
    console.log(
      `Authorise connection ${conn.id} (${connector.displayName}): open this URL in a browser and allow access:`,
    );
    console.log(`  ${url}`);
    console.log(`Waiting up to ${o.timeout} s for the browser to come back to ${redirectUri} …`);
    if (o.browser) openBrowser(url);

    const params = await waitForBrowser(server.callback, o.timeout);
    if (!params)
      throw new ConnectRefused(`no answer from the browser within ${o.timeout} s; nothing stored (run connect again)`);
    const outcome = readAuthorizationResponse(params, state);
    if ('refused' in outcome) throw new ConnectRefused(`${outcome.refused}; nothing stored`);
    const { tokens, orgs } = await redeemGrant(flow, settings, {
      code: outcome.code,
      redirectUri,
      codeVerifier: pkce?.verifier,
      callback: params,
    });
    const chosen = choose(orgs, o.tenant ?? flow.configuredOrganisation(settings), flow.organisationSetting);
    const key = tokenKeyOf({ config: { id: conn.id, settings }, connector });
    const stored = await storeGrant(rt, config, key, tokens);
    console.log(
      `${conn.id}: authorised; tokens stored${key === conn.id ? '' : ` for token group ${key}`} (${
        stored.sealed && stored.sealed !== 'plain'
          ? `sealed under key ${stored.sealed}`
          : `plain text: set ${TOKEN_KEY_ENV} to seal them`
      })${stored.replaced ? ', replacing the ones stored before' : ''}`,
    );
    printConfigLines(conn, flow, settings, params, orgs, chosen);
    return 0;
  } catch (e) {
    if (e instanceof ConnectRefused || e instanceof AuthorizationRefused) {
      console.error(`erp-sync: connect ${conn.id}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await server?.close();
    await rt.close();
  }
}

type CallbackServer = Awaited<ReturnType<typeof startCallbackServer>>;

/** The connection as the config names it, its connector's authorization flow, and its settings with their base URL. */
async function connectionToAuthorise(o: ConnectOptions) {
  const config: AppConfig = await loadConfig(configPath(o.config), process.env, connectSettings);
  const conn: ConnectionConfig | undefined = config.connections.find((c) => c.id === o.connection);
  if (!conn)
    throw new ConfigError(
      `unknown connection "${o.connection}" (configured: ${config.connections.map((c) => c.id).join(', ')})`,
    );
  const connector = connectorFor(conn.system);
  const flow: AuthorizationFlow | undefined = connector.authorization;
  if (!flow) throw new ConfigError(`connection ${conn.id}: ${conn.system} has no authorization flow in this build`);
  const settings = { ...(conn.settings as object), ...(conn.baseUrl ? { baseUrl: conn.baseUrl } : {}) };
  return { config, conn, connector, flow, settings };
}

async function listenForCallback(address: ReturnType<typeof callbackAddress>, state: string): Promise<CallbackServer> {
  try {
    return await startCallbackServer({
      host: address.host,
      port: address.port,
      path: address.path,
      page: (p) => pageFor(readAuthorizationResponse(p, state)),
    });
  } catch (e) {
    if (!(e instanceof ListenError) || !e.portProblem) throw e;
    throw new ConfigError(
      `the callback cannot listen: ${e.message}; choose another port with --port or --redirect-uri (and register that redirect URI with the vendor app)`,
    );
  }
}

/** The callback's parameters, or nothing once `timeoutSeconds` have passed. */
async function waitForBrowser(
  callback: Promise<URLSearchParams>,
  timeoutSeconds: number,
): Promise<URLSearchParams | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>(
    (resolve) => (timer = setTimeout(() => resolve(undefined), timeoutSeconds * 1000)),
  );
  try {
    return await Promise.race([callback, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function printConfigLines(
  conn: ConnectionConfig,
  flow: AuthorizationFlow,
  settings: object,
  params: URLSearchParams,
  orgs: GrantOrganisation[],
  chosen: GrantOrganisation,
): void {
  console.log('organisations this grant reaches:');
  for (const g of orgs)
    console.log(`  ${g.id === chosen.id ? '*' : ' '} ${g.id}  ${g.name}${g.id === chosen.id ? `  ← ${conn.id}` : ''}`);
  console.log(`config of connection ${conn.id} (connections[].settings):`);
  console.log(`  ${flow.organisationSetting}: ${yamlValue(chosen.id)}`);
  for (const line of flow.extraConfigLines?.(settings, params) ?? []) console.log(`  ${line}`);
  console.log(
    '  # refreshToken: not needed; the token store holds this grant (a refresh token it has not seen before would replace it)',
  );
}

/** `erp-sync connect --connection ID [--redirect-uri URI] [--no-browser] [--port N] [--tenant ID] [--timeout S]`. */
export function registerConnectCommand(program: Command): void {
  program
    .command('connect')
    .description(
      "authorise a connection at its vendor (OAuth 2.0 authorization code): prints the vendor's URL, waits on a loopback callback, stores the new tokens in place of the old ones and prints the organisations the grant reaches and the config lines to use; for a Tally connection in agent mode, makes its agent's credential and prints it once (--revoke removes it)",
    )
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option(
      '--redirect-uri <uri>',
      `the redirect URI registered with the vendor app, a loopback address this command listens on (default http://127.0.0.1:${DEFAULT_CALLBACK_PORT}/callback)`,
    )
    .addOption(
      new Option(
        '--port <n>',
        `loopback port of the callback (0: any free one) (default ${DEFAULT_CALLBACK_PORT})`,
      ).argParser(intOption('--port', 0, MAX_PORT)),
    )
    .option(
      '--no-browser',
      'only print the URL (by default it is printed and opened with the desktop opener, if there is one)',
    )
    .option(
      '--tenant <id>',
      "the organisation to connect when the grant reaches several (Xero tenant, Zoho organisation); default the config's",
    )
    .addOption(
      new Option('--timeout <seconds>', 'how long to wait for the browser to come back')
        .argParser(intOption('--timeout', 1, 3600))
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .option('--revoke', "a Tally connection in agent mode: revoke its agent's credential instead of making one")
    .action(async (o: ConnectOptions & { revoke?: boolean }) => {
      // A Tally connection in agent mode has no OAuth: connect makes (or revokes) its agent's credential.
      process.exitCode = (await connectAgent(o, connectSettings)) ?? (await runConnect(o));
    });
}
