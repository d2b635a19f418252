import type { Command } from 'commander';
import type { SandboxProfile } from '../../sandbox/profiles.js';
import { collect, intOption, MAX_PORT, parseKeyPair } from '../parse-args.js';
import { waitForShutdown } from '../wait-for-shutdown.js';
import { startBillingSandbox } from './billing-sandbox.js';
import { PORT_HINT, startEmulator } from './start-emulator.js';

interface BillingOptions {
  port: number;
  host: string;
  key?: string[];
  attachmentKey?: string[];
  seed: number;
}

/** `erp-sync sandbox billing`: the billing service emulator alone. */
export function registerBillingCommand(sandbox: Command): void {
  sandbox
    .command('billing')
    .description('the billing service emulator: all 16 endpoints, fault injection, admin endpoints')
    .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--key <KEY=COMPANY>', 'X-Service-Signature key and its company (repeatable)', collect)
    .option('--attachment-key <KEY=COMPANY>', 'X-Service-Attachment-Upload-Signature key (repeatable)', collect)
    .option('--seed <n>', 'seed for the billing-setup data', intOption('--seed'), 1)
    .action(async (o: BillingOptions) => {
      const keys = o.key?.map((k) => parseKeyPair(k, '--key'));
      const attachmentKeys = o.attachmentKey?.map((k) => parseKeyPair(k, '--attachment-key'));
      const start = () => startBillingSandbox(o.port, o.host, keys, attachmentKeys, o.seed);
      const r = await startEmulator('billing emulator', PORT_HINT, start, o.port, o.host);
      if (!o.key) console.log('(default keys; pass --key KEY=COMPANY to choose your own)');
      for (const line of r.describe()) console.log(line);
      await waitForShutdown(() => r.close());
    });
}

/** `erp-sync sandbox <erp>`: one ERP emulator per profile (its webhooks are set through `/__admin/webhooks`). */
export function registerErpCommands(sandbox: Command, profiles: readonly SandboxProfile[]): void {
  for (const p of profiles) {
    sandbox
      .command(p.name)
      .description(p.command.description)
      .option('--port <n>', 'port (0 = any free port)', intOption('--port', 0, MAX_PORT), p.command.defaultPort)
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
      .option('--records <n>', p.command.recordsHelp, intOption('--records'), 500)
      .action(async (o: { port: number; host: string; seed: number; records: number }) => {
        const start = () => p.start({ port: o.port, host: o.host, seed: o.seed, records: o.records });
        const r = await startEmulator(`${p.name} emulator`, PORT_HINT, start, o.port, o.host);
        for (const line of r.describe()) console.log(line);
        await waitForShutdown(() => r.close());
      });
  }
}
