import type { Command } from 'commander';
import { billingCompanyGuardOf } from '../../jobs/billing-company-guard.js';
import type { Runtime } from '../../jobs/runtime.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import { withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import { replay } from './dlq.js';

export type RebindMode = 'same-company' | 'new-company';

export interface RebindResult {
  connection: string;
  mode: RebindMode;
  /** The company the state belonged to, and the one it belongs to now (names or `key-<fingerprint>`). */
  from: string;
  to: string;
  /** same-company: records quarantined as BILLING_COMPANY_CHANGED while it was refused, enqueued again. */
  replayed?: number;
  /** new-company: the connection's upsert jobs not started yet, removed (mapped for the company it left). */
  removedJobs?: number;
}

/**
 * A person's answer to a refused connection (its key is now another billing company's than its state):
 * - `same-company`: the new key is the same company's (a rotated key, a second key): the state stays, is
 *   bound to the new key, and the records refused meanwhile are enqueued again;
 * - `new-company`: the connection now writes to another company, which holds none of its records: its
 *   ledger forgets what was written (each record is written again, under a new job id, its document
 *   link attached again: a cleared ledger would leave the records' job ids to be taken for duplicates of
 *   the completed jobs of the old company), customers ensured, checkpoints (incremental and backfill
 *   windows), quarantine, in-flight index and reconcile verdicts are cleared, and its upsert jobs not
 *   started yet removed, so the next pulls read its whole history again into the new company. The old
 *   company keeps what it has.
 */
export async function rebindBillingCompany(rt: Runtime, connection: string, mode: RebindMode): Promise<RebindResult> {
  const { company, keyId } = rt.connection(connection).billing;
  const status = await billingCompanyGuardOf(rt).status(connection);
  if (!status.refused) {
    throw new ConfigError(
      `connection ${connection}: its state ${status.boundTo ? `already belongs to billing company "${status.boundTo}"` : 'belongs to no billing company yet'}, the one its key names; nothing to rebind`,
    );
  }
  const from = status.boundTo!;
  if (mode === 'same-company') {
    await rt.billingCompanies.set(connection, { company, keyId, since: Date.now() });
    const refused = (await rt.quarantine.list(connection)).filter((e) => e.reason === 'BILLING_COMPANY_CHANGED');
    if (refused.length) await replay(rt, refused);
    return { connection, mode, from, to: company, replayed: refused.length };
  }

  // Jobs mapped for the company it left (its base currency, its customers) must not reach the new one.
  let removedJobs = 0;
  for (const job of await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed'], 0, -1)) {
    if ((job?.data as { connectionId?: string } | undefined)?.connectionId !== connection) continue;
    await job.remove().then(
      () => removedJobs++,
      () => undefined, // started meanwhile: its worker refuses it (the connection is still bound to the old company)
    );
  }
  for (const e of ENTITY_NAMES) await rt.ledger.forgetWritten(connection, e);
  const k = rt.keys;
  const tx = rt.redis.multi();
  for (const e of ENTITY_NAMES) {
    tx.del(k.windowCheckpoint(connection, e));
    // A pull that read the old checkpoint can no longer save it (Checkpoints: saves after a rewind are refused).
    tx.hincrby(k.checkpointRewinds(connection), e, 1);
  }
  tx.del(k.checkpoint(connection), k.customersEnsured(connection), k.quarantine(connection), k.inFlight(connection), k.verdicts(connection));
  tx.del(k.reconcile(connection), k.lastError(connection));
  tx.set(k.billingCompany(connection), JSON.stringify({ company, keyId, since: Date.now() }));
  await tx.exec();
  return { connection, mode, from, to: company, removedJobs };
}

/** `erp-sync state rebind --connection ID --same-company|--new-company [--yes] [--json]` */
export function registerStateRebindCommand(state: Command, confirm: (question: string, yes: boolean | undefined, flagHint: string) => Promise<void>): void {
  state
    .command('rebind')
    .description("after a connection's billing key changed company: keep its state (--same-company) or clear it and sync its history again (--new-company)")
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--same-company', 'the new key belongs to the same billing company (a rotated key): keep the state')
    .option('--new-company', 'the connection now writes to another billing company: clear its state, sync its history again')
    .option('--yes', 'confirm without a prompt (needed when not on a terminal)')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: { connection: string; sameCompany?: boolean; newCompany?: boolean; yes?: boolean; json?: boolean; config?: string }) => {
      if (Boolean(o.sameCompany) === Boolean(o.newCompany)) throw new ConfigError('state rebind needs one of --same-company or --new-company');
      const mode: RebindMode = o.sameCompany ? 'same-company' : 'new-company';
      await withRuntime(o.config, async (rt) => {
        const status = await billingCompanyGuardOf(rt).status(o.connection);
        if (mode === 'new-company' && status.refused)
          await confirm(
            `Clear the sync state of ${o.connection} (written for billing company "${status.boundTo}") and sync its whole history again into "${status.configured}"?`,
            o.yes,
            `state rebind --new-company clears the sync state of ${o.connection} and syncs its history again into billing company "${status.configured}"`,
          );
        else if (status.refused)
          await confirm(
            `Is the new key of ${o.connection} billing company "${status.boundTo}"'s? Its state is kept and its records go on into the company the key belongs to.`,
            o.yes,
            `state rebind --same-company keeps the sync state of ${o.connection} for the company its new key belongs to`,
          );
        const r = await rebindBillingCompany(rt, o.connection, mode);
        if (o.json) return void console.log(JSON.stringify(r, null, 2));
        console.log(
          mode === 'same-company'
            ? `${o.connection}: state kept and bound to billing company "${r.to}" (was "${r.from}"); ${r.replayed} record(s) refused meanwhile enqueued again`
            : `${o.connection}: state of billing company "${r.from}" cleared, ${r.removedJobs} queued upsert(s) removed; bound to "${r.to}"; the next pulls read its whole history`,
        );
      });
    });
}
