import type { Command } from 'commander';
import { billingCompanyGuardOf } from '../../jobs/admission/billing-company-guard.js';
import { type RebindMode, rebindConnection } from '../../operations/rebind-connection.js';
import { ConfigError } from '../../src/errors/index.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { cliAuditor, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';

/** `erp-sync state rebind --connection ID --same-company|--new-company [--yes] [--json]` */
export function registerStateRebindCommand(
  state: Command,
  confirm: (question: string, yes: boolean | undefined, flagHint: string) => Promise<void>,
): void {
  state
    .command('rebind')
    .description(
      "after a connection's billing key changed company: keep its state (--same-company) or clear it and sync its history again (--new-company)",
    )
    .addOption(requiredOption('--connection <id>', 'connection id from the config'))
    .option('--same-company', 'the new key belongs to the same billing company (a rotated key): keep the state')
    .option(
      '--new-company',
      'the connection now writes to another billing company: clear its state, sync its history again',
    )
    .option('--yes', 'confirm without a prompt (needed when not on a terminal)')
    .option('--json', 'print JSON')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(
      async (o: {
        connection: string;
        sameCompany?: boolean;
        newCompany?: boolean;
        yes?: boolean;
        json?: boolean;
        config?: string;
      }) => {
        if (Boolean(o.sameCompany) === Boolean(o.newCompany))
          throw new ConfigError('state rebind needs one of --same-company or --new-company');
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
          const about = { action: AUDITED.rebind.action, connection: o.connection };
          const rebinding = () => rebindConnection(rt, o.connection, mode);
          const r = await audited(cliAuditor(rt), about, rebinding, (x) => ({
            detail: AUDITED.rebind.detail(x, mode),
          }));
          if (o.json) return void console.log(JSON.stringify(r, null, 2));
          console.log(
            mode === 'same-company'
              ? `${o.connection}: state kept and bound to billing company "${r.to}" (was "${r.from}"); ${r.replayed} record(s) refused meanwhile enqueued again`
              : `${o.connection}: state of billing company "${r.from}" cleared, ${r.removedJobs} queued upsert(s) removed; bound to "${r.to}"; the next pulls read its whole history`,
          );
        });
      },
    );
}
