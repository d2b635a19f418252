import type { Command } from 'commander';
import type { Runtime } from '../../jobs/runtime.js';
import { billingCompanyGuardOf } from '../../jobs/billing-company-guard.js';
import { BILLING } from '../../jobs/billing-outage.js';
import { credentialsStatus } from '../../src/auth/credentials-status.js';
import { withRuntime } from '../context.js';
import { webhooksView } from '../../src/webhooks/webhook-status.js';

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

export async function collectStatus(
  rt: Pick<
    Runtime,
    | 'queues'
    | 'config'
    | 'webhookHealth'
    | 'checkpoints'
    | 'syncStatus'
    | 'ledger'
    | 'quotas'
    | 'quarantine'
    | 'inFlight'
    | 'outages'
    | 'logger'
    | 'connection'
    | 'billingCompanies'
    | 'billingOf'
    | 'connectionControl'
    | 'tokens'
  >,
) {
  const queues: Record<string, Record<string, number>> = {};
  for (const q of Object.values(rt.queues))
    queues[q.name] = await q.getJobCounts(
      'wait',
      'prioritized',
      'active',
      'delayed',
      'failed',
      'completed',
      'waiting-children',
    );
  const billingOutage = await rt.outages.get(BILLING);
  const billing = billingOutage
    ? { up: false, downSince: iso(billingOutage.since), lastError: billingOutage.message }
    : { up: true };
  const companies = billingCompanyGuardOf(rt);
  const connections = [];
  for (const c of rt.config.connections) {
    const checkpoints = await rt.checkpoints.all(c.id);
    const { lastSuccess: last, lastError: errors } = await rt.syncStatus.read(c.id);
    const lastError = (entity: string) => {
      const e = errors[entity];
      return e ? { at: new Date(e.at).toISOString(), message: e.message } : null;
    };
    const entities = c.entities.map((e) => {
      const cp = checkpoints[e] as { state: { cursor: string | null }; savedAt: number } | undefined;
      const cursor = cp?.state.cursor ?? null;
      return {
        entity: e,
        cursor,
        lagSeconds: cursor ? Math.round((Date.now() - Date.parse(cursor)) / 1000) : null,
        lastSuccess: last[e] ? new Date(last[e]).toISOString() : null,
        lastError: lastError(e),
        ledger: undefined as number | undefined,
      };
    });
    for (const e of entities) e.ledger = await rt.ledger.count(c.id, e.entity);
    const parked = await rt.quotas.parkedUntil(c.id);
    const vendorOutage = await rt.outages.get(c.id);
    const sweep = await rt.syncStatus.readSweep(c.id);
    const control = await rt.connectionControl.state(c.id);
    connections.push({
      id: c.id,
      system: c.system,
      originSource: c.originSource,
      entities,
      quarantine: await rt.quarantine.countByReason(c.id),
      /** Paused by an operator (`erp-sync connections pause`): its jobs are held until it is resumed. */
      paused:
        control.state === 'paused'
          ? { since: iso(control.since), by: control.by ?? null, reason: control.reason ?? null }
          : null,
      parkedUntil: parked ? new Date(parked).toISOString() : null,
      /** Whether the vendor accepts the refresh token; not: re-authorise (the connection is parked and rechecked meanwhile). */
      credentials: await credentialsStatus(rt.tokens, rt.connection(c.id)),
      vendor: vendorOutage
        ? { up: false, downSince: iso(vendorOutage.since), lastError: vendorOutage.message }
        : { up: true },
      quota: await rt.quotas.usage(c.id),
      /** Records enqueued and not yet written, skipped or quarantined; and what the sweep recovered. */
      inFlight: await rt.inFlight.count(c.id),
      sweep: { lastRun: iso(sweep.lastRun), recovered: sweep.recovered, lastRecovered: iso(sweep.lastRecovered) },
      /** The billing company it writes to, the one its state belongs to, and whether it is refused for the difference. */
      billingCompany: await companies.status(c.id),
      /** Its webhooks (null: none configured): deliveries carrying its changes, or back on the short schedule and why. */
      webhooks: await webhooksView(rt.webhookHealth, c),
    });
  }
  return { billing, queues, connections };
}

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
        if (opts.json) return void console.log(JSON.stringify(s, null, 2));
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
        for (const c of s.connections) {
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
          if (!c.vendor.up)
            console.log(`  vendor DOWN since ${c.vendor.downSince} (pulls wait for it): ${c.vendor.lastError}`);
          for (const e of c.entities) {
            console.log(
              `  ${e.entity.padEnd(13)} cursor ${e.cursor ?? '(none)'}  lag ${e.lagSeconds ?? '-'} s  last success ${e.lastSuccess ?? 'never'}  ledger ${e.ledger}`,
            );
            if (e.lastError) console.log(`  ${''.padEnd(13)} last error ${e.lastError.at}: ${e.lastError.message}`);
          }
          const q = Object.entries(c.quarantine);
          console.log(`  quarantine: ${q.length ? q.map(([k, v]) => `${k} ${v}`).join(', ') : 'empty'}`);
          console.log(
            `  vendor quota used: minute ${c.quota.minute}, day ${c.quota.day}, in flight ${c.quota.inflight}`,
          );
          console.log(
            `  records on their way to billing: ${c.inFlight}; recovered by the sweep: ${c.sweep.recovered}${c.sweep.lastRecovered ? ` (last ${c.sweep.lastRecovered})` : ''}`,
          );
        }
      });
    });
}
