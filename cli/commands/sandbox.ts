import type { Command } from 'commander';
import type { CompanyKey } from '../../sandbox/billing/auth.js';
import { PROFILES, type RunningSandbox, type SandboxProfile } from '../../sandbox/profiles.js';
import { ConfigError } from '../../src/errors/index.js';
import { ListenError, toListenError } from '../../src/http/listen.js';
import { collect, intOption, MAX_PORT, parseKeyPair } from '../parse-args.js';
import { waitForShutdown } from '../wait-for-shutdown.js';

/** A running emulator as this command uses it (the billing emulator has no connection entry). */
type Running = Omit<RunningSandbox, 'demo'>;

/** The emulators `sandbox` runs, and `all` of them (the default). */
const SANDBOXES = ['all', 'billing', ...PROFILES.map((p) => p.name)];

/** Starts one emulator; a port in use (or a bad host) becomes one line naming the emulator and the fix. */
async function starting<R extends Running>(
  emulator: string,
  portHint: string,
  start: () => Promise<R>,
  port: number,
  host: string,
): Promise<R> {
  try {
    return await start();
  } catch (caught) {
    const e = toListenError(caught, port, host);
    if (!(e instanceof ListenError)) throw e;
    throw new ConfigError(
      `${e.message} (the ${emulator}; ${e.portProblem ? portHint : 'choose another with --host'})`,
      { cause: e },
    );
  }
}

const PORT_HINT = 'choose another with --port';

/** The billing emulator's code, loaded when a sandbox starts (every command is registered in every process, a worker too). */
const billingEmulator = () => import('../../sandbox/billing/billing-emulator.js');
/** The running billing emulator, with the keys it accepts. */
type RunningBilling = Running & { keys: readonly CompanyKey[]; attachmentKeys: readonly CompanyKey[] };

/** The billing emulator; `keys` and `attachmentKeys` undefined: its default ones. */
async function billing(
  port: number,
  host: string,
  keys?: readonly CompanyKey[],
  attachmentKeys?: readonly CompanyKey[],
  seed = 1,
): Promise<RunningBilling> {
  const { DEFAULT_ATTACHMENT_KEYS, DEFAULT_KEYS, startBillingEmulator } = await billingEmulator();
  keys ??= DEFAULT_KEYS;
  attachmentKeys ??= DEFAULT_ATTACHMENT_KEYS;
  const emu = await startBillingEmulator({ port, host, keys, attachmentKeys, seed });
  return {
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `billing emulator      ${emu.url}`,
      ...keys.map((k) => `  X-Service-Signature ${k.key} → company ${k.companyId}`),
      ...attachmentKeys.map((k) => `  X-Service-Attachment-Upload-Signature ${k.key} → company ${k.companyId}`),
      `  admin: ${emu.url}/__admin/{reset,clock,faults,journal,stats,seed,invoices}`,
    ],
    configEntry: () => [],
    keys,
    attachmentKeys,
  };
}

/** Starts one ERP emulator as its profile describes it. */
function erp(profile: SandboxProfile, port: number, host: string, seed: number, records: number): Promise<Running> {
  return profile.start({ port, host, seed, records });
}

/** A config that points every connection at the running sandboxes (for `erp-sync worker`). */
function sandboxConfig(billing: RunningBilling, erps: Running[]): string {
  return [
    '# erp-sync config for the running sandboxes (save as erp-sync.yaml)',
    'billing:',
    `  url: ${billing.url}`,
    `  apiKey: ${billing.keys[0]!.key}`,
    `  attachmentKey: ${billing.attachmentKeys[0]!.key}`,
    '  baseCurrency: INR',
    'connections:',
    ...erps.flatMap((r) => r.configEntry()),
  ].join('\n');
}

/** `erp-sync sandbox [all|billing|zoho-books|quickbooks|xero]`: the built-in emulators, for trying the worker before production. */
export function registerSandboxCommand(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('run the built-in emulators (billing service and ERPs) on loopback');

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
      if (cmd.args.length)
        throw new ConfigError(`unknown sandbox "${cmd.args[0]}"; choose one of ${SANDBOXES.join(', ')}`);
      const last = PROFILES.length; // billing at --port, then one port per ERP
      if (o.port !== 0 && o.port + last > MAX_PORT)
        throw new ConfigError(
          `--port ${o.port}: the sandbox uses ports ${o.port} to ${o.port + last}, past ${MAX_PORT}; use at most ${MAX_PORT - last}`,
        );
      const next = (n: number) => (o.port === 0 ? 0 : o.port + n);
      const hint = 'choose another first port with --port';
      const running: Running[] = [];
      let billingEmu: RunningBilling;
      try {
        billingEmu = await starting(
          'billing emulator at --port',
          hint,
          () => billing(o.port, o.host, undefined, undefined, o.seed),
          o.port,
          o.host,
        );
        running.push(billingEmu);
        for (const [i, p] of PROFILES.entries())
          running.push(
            await starting(
              `${p.name} emulator at --port + ${i + 1}`,
              hint,
              () => erp(p, next(i + 1), o.host, o.seed, o.records),
              next(i + 1),
              o.host,
            ),
          );
      } catch (e) {
        await Promise.all(running.map((r) => r.close()));
        throw e;
      }
      for (const r of running) for (const line of r.describe()) console.log(line);
      console.log(`\n${sandboxConfig(billingEmu, running.slice(1))}\n`);
      await waitForShutdown(async () => {
        await Promise.all(running.map((r) => r.close()));
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
      const keys = o.key?.map((k) => parseKeyPair(k, '--key'));
      const attachmentKeys = o.attachmentKey?.map((k) => parseKeyPair(k, '--attachment-key'));
      const r = await starting(
        'billing emulator',
        PORT_HINT,
        () => billing(o.port, o.host, keys, attachmentKeys, o.seed),
        o.port,
        o.host,
      );
      if (!o.key) console.log('(default keys; pass --key KEY=COMPANY to choose your own)');
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });

  for (const p of PROFILES) {
    sandbox
      .command(p.name)
      .description(p.command.description)
      .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), p.command.defaultPort)
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
      .option('--records <n>', p.command.recordsHelp, intOption('--records'), 500)
      .action(async (o: { port: number; host: string; seed: number; records: number }) => {
        const r = await starting(
          `${p.name} emulator`,
          PORT_HINT,
          () => erp(p, o.port, o.host, o.seed, o.records),
          o.port,
          o.host,
        );
        for (const line of r.describe()) console.log(line);
        await waitForShutdown(() => r.close());
      });
  }
}
