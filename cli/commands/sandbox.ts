import type { Command } from 'commander';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../sandbox/quickbooks/index.js';
import { INDIA_TENANT_ID, startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { DEFAULT_ATTACHMENT_KEYS, DEFAULT_KEYS, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { ConfigError } from '../../src/errors/index.js';
import { ListenError, toListenError } from '../../src/http/listen.js';
import { collect, intOption, MAX_PORT, parseKeyPair } from '../parse-args.js';
import { waitForShutdown } from '../wait-for-shutdown.js';

type Running = { name: string; url: string; close(): Promise<void>; describe(): string[] };

/** The emulators `sandbox` runs, and `all` of them (the default). */
const SANDBOXES = ['all', 'billing', 'zoho-books', 'quickbooks', 'xero'] as const;

/** Starts one emulator; a port in use (or a bad host) becomes one line naming the emulator and the fix. */
async function starting(emulator: string, portHint: string, start: () => Promise<Running>, port: number, host: string): Promise<Running> {
  try {
    return await start();
  } catch (caught) {
    const e = toListenError(caught, port, host);
    if (!(e instanceof ListenError)) throw e;
    throw new ConfigError(`${e.message} (the ${emulator}; ${e.portProblem ? portHint : 'choose another with --host'})`, { cause: e });
  }
}

const PORT_HINT = 'choose another with --port';

async function billing(port: number, host: string, keys = DEFAULT_KEYS, attachmentKeys = DEFAULT_ATTACHMENT_KEYS, seed = 1): Promise<Running> {
  const emu = await startBillingEmulator({ port, host, keys, attachmentKeys, seed });
  return {
    name: 'billing',
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `billing emulator      ${emu.url}`,
      ...keys.map((k) => `  X-Service-Signature ${k.key} → company ${k.companyId}`),
      ...attachmentKeys.map((k) => `  X-Service-Attachment-Upload-Signature ${k.key} → company ${k.companyId}`),
      `  admin: ${emu.url}/__admin/{reset,clock,faults,journal,stats,seed,invoices}`,
    ],
  };
}

async function zoho(port: number, host: string, seed: number, records: number): Promise<Running> {
  const emu = await startZohoEmulator({ port, host, seed, records });
  const d = ZOHO_SANDBOX_DEFAULTS;
  return {
    name: 'zoho-books',
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `zoho-books emulator   ${emu.apiBase}  (${records} invoices, seed ${seed})`,
      `  organizationId ${emu.organizationId}, clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken}`,
      `  token URL ${emu.tokenUrl}; admin: ${emu.url}/__admin/{mutate,clock,faults,limits,journal,stats}`,
    ],
  };
}

async function quickbooks(port: number, host: string, seed: number, records: number): Promise<Running> {
  const emu = await startQuickBooksEmulator({ port, host, seed, records });
  const d = QBO_SANDBOX_DEFAULTS;
  return {
    name: 'quickbooks',
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `quickbooks emulator   ${emu.url}/v3/company/${emu.realmId}  (${records} invoices, seed ${seed})`,
      `  realmId ${emu.realmId}, clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken} (rotates)`,
      `  token URL ${emu.url}/oauth2/v1/tokens/bearer; admin: ${emu.url}/__admin/{invoices,credit-memos,customers,touch,clock,faults,limits,journal,stats}`,
    ],
  };
}

async function xero(port: number, host: string, seed: number, records: number): Promise<Running> {
  const emu = await startXeroEmulator({ port, host, seed, records });
  const d = XERO_SANDBOX_DEFAULTS;
  return {
    name: 'xero',
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `xero emulator         ${emu.apiBase}  (${records} invoices per organisation, seed ${seed})`,
      `  tenants ${emu.tenantIds.join(', ')} (INR, AUD); clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken} (single-use)`,
      `  token URL ${emu.tokenUrl}; admin: ${emu.url}/__admin/{tenants,day-limit,clock,faults,limits,journal,stats}`,
    ],
  };
}

/** A config that points every connection at the running sandboxes (for `erp-sync worker`). */
function sandboxConfig(r: Record<string, Running | undefined>): string {
  const lines = [
    '# erp-sync config for the running sandboxes (save as erp-sync.yaml)',
    'billing:',
    `  url: ${r.billing?.url}`,
    `  apiKey: ${DEFAULT_KEYS[0]!.key}`,
    `  attachmentKey: ${DEFAULT_ATTACHMENT_KEYS[0]!.key}`,
    '  baseCurrency: INR',
    'connections:',
  ];
  if (r['zoho-books']) {
    const d = ZOHO_SANDBOX_DEFAULTS;
    lines.push(
      '  - id: zoho-in',
      '    system: zoho-books',
      '    originSource: EXTERNAL_SYSTEM_A',
      '    schedule: { everySeconds: 30 }',
      '    settings:',
      `      organizationId: "${d.organizationId}"`,
      `      clientId: ${d.clientId}`,
      `      clientSecret: ${d.clientSecret}`,
      `      refreshToken: ${d.refreshToken}`,
      `      baseUrl: ${r['zoho-books'].url}/books/v3`,
      '      dailyCallLimit: 10000',
    );
  }
  if (r.quickbooks) {
    const d = QBO_SANDBOX_DEFAULTS;
    lines.push(
      '  - id: qbo-in',
      '    system: quickbooks',
      '    originSource: EXTERNAL_SYSTEM_B',
      '    schedule: { everySeconds: 30 }',
      '    settings:',
      `      realmId: "${d.realmId}"`,
      `      clientId: ${d.clientId}`,
      `      clientSecret: ${d.clientSecret}`,
      `      refreshToken: ${d.refreshToken}`,
      `      baseUrl: ${r.quickbooks.url}`,
      `      tokenUrl: ${r.quickbooks.url}/oauth2/v1/tokens/bearer`,
    );
  }
  if (r.xero) {
    const d = XERO_SANDBOX_DEFAULTS;
    lines.push(
      '  - id: xero-in',
      '    system: xero',
      '    originSource: EXTERNAL_SYSTEM_C',
      '    schedule: { everySeconds: 60 }',
      '    settings:',
      `      tenantId: ${INDIA_TENANT_ID}`,
      `      clientId: ${d.clientId}`,
      `      clientSecret: ${d.clientSecret}`,
      `      refreshToken: ${d.refreshToken}`,
      `      baseUrl: ${r.xero.url}/api.xro/2.0`,
      `      tokenUrl: ${r.xero.url}/connect/token`,
    );
  }
  return lines.join('\n');
}

/** `erp-sync sandbox [all|billing|zoho-books|quickbooks|xero]`: the built-in emulators, for trying the worker before production. */
export function registerSandboxCommand(program: Command): void {
  const sandbox = program.command('sandbox').description('run the built-in emulators (billing service and ERPs) on loopback');

  sandbox
    .command('all', { isDefault: true })
    .description('every emulator on consecutive ports, and a config that uses them')
    .option('--port <n>', 'first port (billing); the ERPs take the next three', intOption('--port', 0, MAX_PORT), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--records <n>', 'invoices per ERP', intOption('--records'), 500)
    // `sandbox frob` reaches this default command as an argument: named below instead of commander's
    // "too many arguments for 'all'".
    .allowExcessArguments()
    .action(async (o: { port: number; host: string; seed: number; records: number }, cmd: Command) => {
      if (cmd.args.length) throw new ConfigError(`unknown sandbox "${cmd.args[0]}"; choose one of ${SANDBOXES.join(', ')}`);
      const last = SANDBOXES.length - 2; // billing at --port, then one port per ERP
      if (o.port !== 0 && o.port + last > MAX_PORT)
        throw new ConfigError(`--port ${o.port}: the sandbox uses ports ${o.port} to ${o.port + last}, past ${MAX_PORT}; use at most ${MAX_PORT - last}`);
      const next = (n: number) => (o.port === 0 ? 0 : o.port + n);
      const hint = 'choose another first port with --port';
      const running: Record<string, Running> = {};
      try {
        running.billing = await starting(
          'billing emulator at --port',
          hint,
          () => billing(o.port, o.host, DEFAULT_KEYS, DEFAULT_ATTACHMENT_KEYS, o.seed),
          o.port,
          o.host,
        );
        running['zoho-books'] = await starting('zoho-books emulator at --port + 1', hint, () => zoho(next(1), o.host, o.seed, o.records), next(1), o.host);
        running.quickbooks = await starting('quickbooks emulator at --port + 2', hint, () => quickbooks(next(2), o.host, o.seed, o.records), next(2), o.host);
        running.xero = await starting('xero emulator at --port + 3', hint, () => xero(next(3), o.host, o.seed, o.records), next(3), o.host);
      } catch (e) {
        await Promise.all(Object.values(running).map((r) => r.close()));
        throw e;
      }
      for (const r of Object.values(running)) for (const line of r.describe()) console.log(line);
      console.log(`\n${sandboxConfig(running)}\n`);
      await waitForShutdown(async () => {
        await Promise.all(Object.values(running).map((r) => r.close()));
      });
    });

  sandbox
    .command('billing')
    .description('the billing service emulator: all 16 endpoints, fault injection, admin endpoints')
    .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--key <KEY=COMPANY>', 'X-Service-Signature key and its company (repeatable)', collect)
    .option('--attachment-key <KEY=COMPANY>', 'X-Service-Attachment-Upload-Signature key (repeatable)', collect)
    .option('--seed <n>', 'seed for the billing-setup data', intOption('--seed'), 1)
    .action(async (o: { port: number; host: string; key?: string[]; attachmentKey?: string[]; seed: number }) => {
      const keys = o.key?.map((k) => parseKeyPair(k, '--key')) ?? DEFAULT_KEYS;
      const attachmentKeys = o.attachmentKey?.map((k) => parseKeyPair(k, '--attachment-key')) ?? DEFAULT_ATTACHMENT_KEYS;
      const r = await starting('billing emulator', PORT_HINT, () => billing(o.port, o.host, keys, attachmentKeys, o.seed), o.port, o.host);
      if (!o.key) console.log('(default keys; pass --key KEY=COMPANY to choose your own)');
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });

  sandbox
    .command('zoho-books')
    .description('the Zoho Books emulator over seeded generated data')
    .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), 4011)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--records <n>', 'invoices to generate', intOption('--records'), 500)
    .action(async (o: { port: number; host: string; seed: number; records: number }) => {
      const r = await starting('zoho-books emulator', PORT_HINT, () => zoho(o.port, o.host, o.seed, o.records), o.port, o.host);
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });

  registerVendorSandboxes(sandbox);
}

export function registerVendorSandboxes(sandbox: Command): void {
  sandbox
    .command('quickbooks')
    .description('the QuickBooks Online emulator over seeded generated data')
    .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), 4012)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--records <n>', 'invoices to generate', intOption('--records'), 500)
    .action(async (o: { port: number; host: string; seed: number; records: number }) => {
      const r = await starting('quickbooks emulator', PORT_HINT, () => quickbooks(o.port, o.host, o.seed, o.records), o.port, o.host);
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });
  sandbox
    .command('xero')
    .description('the Xero emulator: two organisations (INR and AUD base) over seeded generated data')
    .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), 4013)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--records <n>', 'invoices per organisation', intOption('--records'), 500)
    .action(async (o: { port: number; host: string; seed: number; records: number }) => {
      const r = await starting('xero emulator', PORT_HINT, () => xero(o.port, o.host, o.seed, o.records), o.port, o.host);
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });
}
