import { type Command, InvalidArgumentError } from 'commander';
import { resolveDrift, type ResolveDriftResult } from '../../operations/resolve-drift.js';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited, type Told } from '../../operations/audited.js';
import { cliAuditor, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';

interface ResolveOptions {
  entity: string;
  erpId: string;
  note: string;
  by?: string;
}

function entityOption(value: string): string {
  if (!isEntityName(value))
    throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

/** The audit entry of a resolve: the API's words for each ending (not found, a conflict, resolved). */
function resolvedTold(
  r: ResolveDriftResult,
  o: { connection: string; entity: string; erpId: string; note: string },
): Told {
  const what = AUDITED.resolve.what(o.connection, o.entity, o.erpId);
  if (r.state === 'not-drifted') return { outcome: 'not-found', detail: AUDITED.resolve.notDrifted(what) };
  if (r.state === 'fixable') return { outcome: 'conflict', detail: AUDITED.resolve.fixable(what, r.kinds) };
  return { detail: AUDITED.resolve.detail(r.kinds, o.note) };
}

/**
 * `erp-sync reconcile resolve --connection ID --erp-id ID --note TEXT [--entity invoices] [--by NAME]`:
 * marks drift that needs a person resolved (operations/resolve-drift.ts, as the API's resolve).
 * Exit codes: 0 resolved, 1 nothing to resolve (no drift on it, or drift a repair fixes).
 */
export function registerReconcileResolveCommand(reconcile: Command): void {
  reconcile
    .command('resolve')
    .description('mark a drifted record that needs a person resolved, with a note: not reported until it changes')
    .addOption(requiredOption('--erp-id <id>', 'the ERP record id'))
    .addOption(requiredOption('--note <text>', 'what was done, or why nothing needs doing'))
    .option('--entity <name>', 'entity', entityOption, 'invoices')
    .option('--by <name>', 'who resolved it (default: $USER)')
    .action(async (o: ResolveOptions, cmd: Command) => {
      // --connection and --config are the reconcile command's own options.
      const { connection, config } = cmd.parent!.opts<{ connection: string; config?: string }>();
      await withRuntime(config, async (rt) => {
        const by = o.by ?? process.env.USER ?? 'erp-sync';
        rt.connection(connection); // an unknown connection is a usage error (exit 2), not an action
        const about = { action: AUDITED.resolve.action, connection, record: `${o.entity}/${o.erpId}` };
        const resolving = () => resolveDrift(rt, connection, o.entity, o.erpId, { by, note: o.note });
        const r = await audited(cliAuditor(rt, by), about, resolving, (x) => resolvedTold(x, { ...o, connection }));
        const what = `${connection}/${o.entity}/${o.erpId}`;
        if (r.state === 'resolved') return void console.log(`${what}: ${r.kinds.join(', ')} resolved by ${by}`);
        process.exitCode = 1;
        console.log(
          r.state === 'fixable'
            ? `${what}: its drift (${r.kinds.join(', ')}) is fixed by a sync: reconcile with --repair`
            : `${what}: the last reconciliation found no drift on it`,
        );
      });
    });
}
