import type { Command } from 'commander';
import type { Runtime } from '../../jobs/runtime.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { withRuntime } from '../context.js';
import { printedHistoryEntry } from '../../operations/list-history.js';
import { historyLine } from './history.js';
import { requiredOption } from '../required-option.js';

/** Source version → job → billing ids → last reconciliation verdict → the record's history, for one ERP record. */
export async function explainRecord(
  rt: Pick<Runtime, 'connection' | 'ledger' | 'quarantine' | 'reconcileState' | 'queues' | 'recordHistory'>,
  connection: string,
  erpId: string,
) {
  rt.connection(connection);
  const out = [];
  for (const entity of ENTITY_NAMES) {
    const ledger = await rt.ledger.get(connection, entity, erpId);
    const quarantine = await rt.quarantine.get(connection, entity, erpId);
    const verdict = await rt.reconcileState.verdict(connection, entity, erpId);
    const history = await rt.recordHistory.list(connection, entity, erpId);
    if (!ledger && !quarantine && !verdict && !history.length) continue;
    let job: { id: string; state: string; attemptsMade: number; failedReason?: string } | undefined;
    if (ledger?.jobId) {
      const j = await rt.queues.upsert.getJob(ledger.jobId);
      if (j)
        job = {
          id: j.id!,
          state: await j.getState(),
          attemptsMade: j.attemptsMade,
          failedReason: j.failedReason || undefined,
        };
    }
    out.push({
      entity,
      source: ledger
        ? { version: ledger.version, status: ledger.sourceStatus ?? null, deletedAt: ledger.sourceDeletedAt ?? null }
        : null,
      job:
        job ??
        (ledger?.jobId
          ? {
              id: ledger.jobId,
              state: 'removed (completed; completed upsert jobs are kept for the last 1,000 records only)',
            }
          : null),
      billing: ledger
        ? {
            id: ledger.billingId,
            number: ledger.number ?? null,
            writtenAt: new Date(ledger.writtenAt).toISOString(),
            contentHash: ledger.hash,
            attachmentUrl: ledger.attachmentUrl ?? null,
          }
        : null,
      quarantine: quarantine
        ? {
            reason: quarantine.reason,
            stage: quarantine.stage,
            version: quarantine.version,
            message: quarantine.message,
          }
        : null,
      reconciliation: verdict ?? null,
      history: history.map(printedHistoryEntry),
    });
  }
  return out;
}

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
          console.log(`  history:        ${e.history.length ? `${e.history.length}, oldest first` : '-'}`);
          for (const h of e.history) console.log(`    ${historyLine(h)}`);
        }
      }),
    );
}
