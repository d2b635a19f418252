import type { Command } from 'commander';
import { intOption } from '../parse-args.js';

// The demo and the sandboxes it runs are loaded when it runs: every command is registered in every
// process, and a worker has no use for the emulators' code (about 3 MiB of heap, measured).

/** `erp-sync demo`: the whole pipeline offline against the built-in sandboxes; prints what happened. */
export function registerDemoCommand(program: Command): void {
  const demo = program
    .command('demo')
    .description('run offline against the built-in sandboxes and print what happened');

  demo
    .command('pipeline', { isDefault: true })
    .description(
      'sandboxes → backfill → source changes → incremental sync → reconciliation (exit 0 only if billing matches the source)',
    )
    .option('--records <n>', 'invoices per ERP sandbox', intOption('--records', 1), 300)
    .option('--seed <n>', 'seed of the generated data', intOption('--seed'), 1)
    .option('--json', 'print {source, billing, quarantined, drift} counts as JSON')
    .action(async (o: { records: number; seed: number; json?: boolean }) => {
      const [{ runPipelineDemo }, { startDemo }, { PROFILES }] = await Promise.all([
        import('../demo/pipeline-demo.js'),
        import('../demo/sandbox-erps.js'),
        import('../../sandbox/profiles.js'),
      ]);
      const log = o.json ? () => {} : (line: string) => console.log(line);
      const summary = await runPipelineDemo(
        PROFILES.map((p) => () => startDemo(p, o.records, o.seed)),
        log,
      );
      if (o.json) {
        console.log(
          JSON.stringify(
            { ...summary.totals, ok: summary.ok, connections: summary.connections, seconds: summary.seconds },
            null,
            2,
          ),
        );
      } else {
        console.log('\nsummary (invoices):');
        const width = Math.max(12, ...summary.connections.map((c) => c.connection.length));
        console.log(`  ${'connection'.padEnd(width)}  source  billing  quarantined  drift`);
        for (const c of summary.connections) {
          console.log(
            `  ${c.connection.padEnd(width)} ${String(c.source).padStart(7)} ${String(c.billing).padStart(8)} ${String(c.quarantined).padStart(12)} ${String(c.drift).padStart(6)}`,
          );
        }
        console.log(
          `\n${summary.ok ? '✔ billing matches the source: every invoice is in billing or quarantined with its reason, no drift left' : '✘ billing does NOT match the source'} (${summary.seconds.toFixed(1)} s)`,
        );
      }
      process.exitCode = summary.ok ? 0 : 1;
    });

  demo
    .command('billing')
    .description('a scripted round trip through the billing client against the billing sandbox')
    .option('--json', 'print a JSON summary')
    .action(async (o: { json?: boolean }) => {
      const { runBillingRoundTrip } = await import('../demo/billing-round-trip.js');
      const summary = await runBillingRoundTrip(o.json ? () => {} : console.log);
      if (o.json) console.log(JSON.stringify(summary, null, 2));
      else console.log(summary.ok ? '\ndemo: every step succeeded' : '\ndemo: some steps FAILED');
      process.exitCode = summary.ok ? 0 : 1;
    });
}
