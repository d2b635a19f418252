import type { Command } from 'commander';
import type { SandboxProfile } from '../../sandbox/profiles.js';
import { ConfigError } from '../../src/errors/index.js';
import { intOption, MAX_PORT } from '../parse-args.js';
import { waitForShutdown } from '../wait-for-shutdown.js';
import { startBillingSandbox, type RunningBilling } from './billing-sandbox.js';
import { sandboxConfig } from './sandbox-config.js';
import { startEmulator, type Running } from './start-emulator.js';
import {
  webhookUrl,
  pickWebhooksPort,
  sandboxWebhookWiring,
  wireWebhooks,
  type WebhookWiring,
  INTENT_RETRY_MS,
} from './webhook-wiring.js';

interface AllOptions {
  port: number;
  host: string;
  seed: number;
  records: number;
  webhooks: boolean;
  webhooksPort?: number;
  webhooksHost?: string;
}

type RunningErp = Running & { system: string };

/** `sandbox frob` reaches the default command as an argument; a first port must leave room for the ERPs. */
function checkArguments(o: AllOptions, args: readonly string[], profiles: readonly SandboxProfile[]): void {
  const sandboxes = ['all', 'billing', ...profiles.map((p) => p.name)];
  if (args.length) throw new ConfigError(`unknown sandbox "${args[0]}"; choose one of ${sandboxes.join(', ')}`);
  const last = profiles.length; // billing at --port, then one port per ERP
  if (o.port !== 0 && o.port + last > MAX_PORT)
    throw new ConfigError(
      `--port ${o.port}: the sandbox uses ports ${o.port} to ${o.port + last}, past ${MAX_PORT}; use at most ${MAX_PORT - last}`,
    );
}

/** Billing at --port, each ERP on the next port (any free ports with --port 0); all closed if one fails. */
async function startAll(
  o: AllOptions,
  profiles: readonly SandboxProfile[],
): Promise<{ billing: RunningBilling; erps: RunningErp[] }> {
  const next = (n: number) => (o.port === 0 ? 0 : o.port + n);
  const hint = 'choose another first port with --port';
  const running: Running[] = [];
  try {
    const billing = await startEmulator(
      'billing emulator at --port',
      hint,
      () => startBillingSandbox(o.port, o.host, undefined, undefined, o.seed),
      o.port,
      o.host,
    );
    running.push(billing);
    const erps: RunningErp[] = [];
    for (const [i, p] of profiles.entries()) {
      const start = () => p.start({ port: next(i + 1), host: o.host, seed: o.seed, records: o.records });
      const erp = await startEmulator(`${p.name} emulator at --port + ${i + 1}`, hint, start, next(i + 1), o.host);
      running.push(erp);
      erps.push({ ...erp, system: p.name });
    }
    return { billing, erps };
  } catch (e) {
    await Promise.all(running.map((r) => r.close()));
    throw e;
  }
}

/** The worker's webhook listener (after the ERPs' ports by default), and every ERP emulator posting to it. */
async function wire(o: AllOptions, erps: RunningErp[]): Promise<WebhookWiring | undefined> {
  const count = erps.length;
  if (!o.webhooks) return undefined;
  const after = o.port === 0 || o.port + count + 1 > MAX_PORT ? undefined : o.port + count + 1;
  const port = await pickWebhooksPort(o.webhooksPort, after, o.host);
  const wiring = sandboxWebhookWiring(o.host, port, o.seed, o.webhooksHost);
  await wireWebhooks(erps, wiring);
  return wiring;
}

function print(billing: RunningBilling, erps: RunningErp[], wiring: WebhookWiring | undefined): void {
  for (const r of [billing, ...erps]) for (const line of r.describe()) console.log(line);
  if (wiring)
    console.log(
      `webhooks              every ERP emulator but Tally's (TallyPrime sends none: polled) posts its changes to ${webhookUrl(wiring)} (the worker's webhooks listener); Xero checks intent to receive every ${INTENT_RETRY_MS / 1000} s until the worker answers`,
    );
  console.log(`\n${sandboxConfig(billing, erps, wiring)}\n`);
}

/** `erp-sync sandbox [all]`: every emulator, wired to a worker's webhook listener, and the config that uses them. */
export function registerAllCommand(sandbox: Command, profiles: readonly SandboxProfile[]): void {
  sandbox
    .command('all', { isDefault: true })
    .description('every emulator on consecutive ports, and a config that uses them')
    .option('--port <n>', 'first port (billing); the ERPs take the next four', intOption('--port', 0, MAX_PORT), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--records <n>', 'invoices per ERP', intOption('--records'), 500)
    .option(
      '--webhooks-port <n>',
      "the worker's webhooks port (default: the port after the ERPs')",
      intOption('--webhooks-port', 1, MAX_PORT),
    )
    .option('--webhooks-host <host>', 'the host the emulators post to (default: the loopback the worker listens on)')
    .option('--no-webhooks', 'no webhook deliveries, and no webhooks sections in the config')
    // `sandbox frob` reaches this default command as an argument: named below instead of commander's
    // "too many arguments for 'all'".
    .allowExcessArguments()
    .action(async (o: AllOptions, cmd: Command) => {
      checkArguments(o, cmd.args, profiles);
      const { billing, erps } = await startAll(o, profiles);
      const closeAll = () => Promise.all([billing, ...erps].map((r) => r.close())).then(() => undefined);
      const wiring = await wire(o, erps).catch(async (e: unknown) => {
        await closeAll();
        throw e;
      });
      print(billing, erps, wiring);
      await waitForShutdown(closeAll);
    });
}
