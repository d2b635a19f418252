import type { Command } from 'commander';
import { collectStatus, type ConnectionStatus, type ServiceStatus } from '../../operations/collect-status.js';
import { withRuntime } from '../context.js';
import { freshnessLine } from '../freshness-line.js';
import { progressLine } from '../progress-line.js';
import { agentLine } from '../../operations/agent-view.js';

/** `erp-sync status [--json]`: queues, checkpoints and lag, quarantine counts, per connection. */
export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('queues, checkpoints and lag, quarantine counts, per connection')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (opts: { json?: boolean; config?: string }) => {
      await withRuntime(opts.config, async (rt) => {
        const s = await collectStatus(rt);
        if (opts.json) console.log(JSON.stringify(s, null, 2));
        else printStatus(s);
      });
    });
}

function printStatus(s: ServiceStatus): void {
  console.log(
    s.billing.up
      ? 'billing: up'
      : `billing: DOWN since ${s.billing.downSince} (upserts paused until it answers): ${s.billing.lastError}`,
  );
  console.log('queues:');
  for (const [name, c] of Object.entries(s.queues)) {
    console.log(
      `  ${name.padEnd(10)} ${Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }
  for (const c of s.connections) printConnection(c);
}

function printConnection(c: ConnectionStatus): void {
  console.log(
    `\nconnection ${c.id} (${c.system}, ${c.originSource})${c.parkedUntil ? ` — PARKED until ${c.parkedUntil}` : ''}`,
  );
  if (c.paused)
    console.log(
      `  PAUSED since ${c.paused.since}${c.paused.by ? ` by ${c.paused.by}` : ''}${c.paused.reason ? `: ${c.paused.reason}` : ''} (jobs held; erp-sync connections resume ${c.id})`,
    );
  const bc = c.billingCompany;
  console.log(
    bc.refused
      ? `  billing company CHANGED: state written for "${bc.boundTo}", key now "${bc.configured}"'s — nothing is synced until \`erp-sync state rebind --connection ${c.id} --same-company|--new-company\``
      : `  billing company ${bc.configured}`,
  );
  if (!c.credentials.ok)
    console.log(
      `  CREDENTIALS REFUSED by the vendor since ${c.credentials.refusedAt} (${c.credentials.failure}): re-authorise the connection (docs/operations.md); details: erp-sync token status --connection ${c.id}`,
    );
  if (c.agent) console.log(`  agent: ${agentLine(c.agent)}`);
  if (!c.vendor.up) console.log(`  vendor DOWN since ${c.vendor.downSince} (pulls wait for it): ${c.vendor.lastError}`);
  for (const e of c.entities) {
    console.log(
      `  ${e.entity.padEnd(13)} cursor ${e.cursor ?? '(none)'}  lag ${e.lagSeconds ?? '-'} s  last success ${e.lastSuccess ?? 'never'}  ledger ${e.ledger}`,
    );
    if (e.lastError) console.log(`  ${''.padEnd(13)} last error ${e.lastError.at}: ${e.lastError.message}`);
  }
  for (const p of c.progress) console.log(`  ${'running'.padEnd(13)} ${progressLine(p)}`);
  const q = Object.entries(c.quarantine);
  console.log(`  quarantine: ${q.length ? q.map(([k, v]) => `${k} ${v}`).join(', ') : 'empty'}`);
  if (c.review) {
    const held = Object.entries(c.review.held);
    const n = held.reduce((sum, [, v]) => sum + v, 0);
    console.log(
      `  review (${c.review.mode}): ${n} held${held.length ? ` (${held.map(([k, v]) => `${k} ${v}`).join(', ')}; erp-sync review list --connection ${c.id})` : ''}`,
    );
  }
  console.log(`  freshness: ${freshnessLine(c.freshness)}`);
  console.log(`  vendor quota used: minute ${c.quota.minute}, day ${c.quota.day}, in flight ${c.quota.inflight}`);
  console.log(
    `  records on their way to billing: ${c.inFlight}; recovered by the sweep: ${c.sweep.recovered}${c.sweep.lastRecovered ? ` (last ${c.sweep.lastRecovered})` : ''}`,
  );
}
