import type { Command } from 'commander';
import { withRuntime } from '../context.js';
import { historyLine } from './history.js';
import { requiredOption } from '../required-option.js';
import { explainRecord } from '../../operations/explain-record.js';

export function registerExplainCommand(program: Command): void {
  program
    .command('explain')
    .description(
      "trace one ERP record: source version → job → billing ids → last reconciliation verdict → the record's history",
    )
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .addOption(requiredOption('--erp-id <id>', "the ERP's record id"))
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: { connection: string; erpId: string; json?: boolean; config?: string }) =>
      withRuntime(o.config, async (rt) => {
        const r = await explainRecord(rt, o.connection, o.erpId);
        // Not found is exit 1 in both forms (--json still prints the empty list).
        if (!r.length) process.exitCode = 1;
        if (o.json) return void console.log(JSON.stringify(r, null, 2));
        if (!r.length)
          return void console.log(
            `${o.connection}/${o.erpId}: never seen (not in the ledger, quarantine or reconciliation)`,
          );
        for (const e of r) {
          console.log(`${o.connection} ${e.entity}/${o.erpId}`);
          console.log(
            `  source:         ${e.source ? `version ${e.source.version}, status ${e.source.status ?? '-'}${e.source.deletedAt ? `, DELETED in source at ${e.source.deletedAt}` : ''}` : 'not written yet'}`,
          );
          console.log(`  job:            ${e.job ? `${e.job.id} (${e.job.state})` : '-'}`);
          console.log(
            `  billing:        ${e.billing ? `${e.billing.id} ${e.billing.number ?? ''} written ${e.billing.writtenAt}` : '-'}`,
          );
          console.log(
            `  quarantine:     ${e.quarantine ? `${e.quarantine.reason} (${e.quarantine.stage}) v${e.quarantine.version}: ${e.quarantine.message}` : '-'}`,
          );
          console.log(`  reconciliation: ${e.reconciliation ? JSON.stringify(e.reconciliation) : 'never reconciled'}`);
          if (e.review)
            console.log(
              `  review:         ${e.review.state} v${e.review.version} by rule ${e.review.rule} since ${e.review.since}${e.review.state === 'rejected' ? ` (rejected by ${e.review.by}: ${e.review.note})` : ''}`,
            );
          console.log(`  history:        ${e.history.length ? `${e.history.length}, oldest first` : '-'}`);
          for (const h of e.history) console.log(`    ${historyLine(h)}`);
        }
      }),
    );
}
