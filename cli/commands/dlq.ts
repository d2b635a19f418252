import { type Command, InvalidArgumentError } from 'commander';
import { purgeQuarantined } from '../../operations/purge-quarantined.js';
import { replayQuarantined } from '../../operations/replay-quarantined.js';
import { selectQuarantined } from '../../operations/select-quarantined.js';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { cliAuditor, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';
import type { Runtime } from '../../jobs/runtime.js';

type Opts = { connection: string; entity?: string; erpId?: string; all?: boolean; json?: boolean; config?: string };

function entityOption(value: string): string {
  if (!isEntityName(value))
    throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

/** Why nothing was selected: the quarantine is empty, or holds records none of which match the filters. */
function noneSelected(inQuarantine: number, o: Opts): string {
  if (!inQuarantine) return `quarantine of ${o.connection} is empty`;
  const filters = [o.entity && `--entity ${o.entity}`, o.erpId && `--erp-id ${o.erpId}`].filter(Boolean).join(' ');
  return `no quarantined record matches ${filters} (${inQuarantine} record(s) in quarantine for ${o.connection})`;
}

/** `dlq list`: the quarantined records matching the filters, with their reason. */
async function listDlq(rt: Runtime, o: Opts): Promise<void> {
  const { inQuarantine, entries } = await selectQuarantined(rt, o);
  if (o.json)
    return void console.log(
      JSON.stringify(
        entries.map(({ payload: _p, ...e }) => e),
        null,
        2,
      ),
    );
  if (!entries.length) return void console.log(noneSelected(inQuarantine, o));
  for (const e of entries)
    console.log(`${e.entity}/${e.erpId}  ${e.reason.padEnd(20)} ${e.stage.padEnd(6)} v${e.version}  ${e.message}`);
  console.log(`${entries.length} record(s)`);
}

/** `dlq show`: one quarantined record in full (exit 1 when it is not in quarantine). */
async function showDlq(rt: Runtime, o: Opts, entity: string, erpId: string): Promise<void> {
  rt.connection(o.connection);
  const e = await rt.quarantine.get(o.connection, entity, erpId);
  if (!e) {
    console.log(`${entity}/${erpId} is not in quarantine`);
    process.exitCode = 1;
    return;
  }
  console.log(JSON.stringify(e, null, 2));
}

/** `dlq replay`: the matching records tried again, as one audited action. */
async function replayDlq(rt: Runtime, o: Opts): Promise<void> {
  const { inQuarantine, entries } = await selectQuarantined(rt, o);
  if (!entries.length) return void console.log(`nothing to replay: ${noneSelected(inQuarantine, o)}`);
  const one = o.erpId && entries.length === 1 ? entries[0] : undefined;
  const about = one
    ? { action: AUDITED.replay.action, connection: o.connection, record: `${one.entity}/${one.erpId}` }
    : { action: AUDITED.replaySelection.action, connection: o.connection };
  const detail = one ? AUDITED.replay.detail(one.reason) : AUDITED.replaySelection.detail(entries.length, o.entity);
  const r = await audited(
    cliAuditor(rt),
    about,
    () => replayQuarantined(rt, entries),
    () => ({ detail }),
  );
  console.log(
    `replayed ${r.replayed}: ${r.reenqueued} re-enqueued for upsert${r.repulled.length ? `, re-pulling ${r.repulled.join(', ')}` : ''}; they leave quarantine when they succeed`,
  );
}

/** `dlq purge`: the matching records removed for good, as one audited action. */
async function purgeDlq(rt: Runtime, o: Opts): Promise<void> {
  const { inQuarantine, entries } = await selectQuarantined(rt, o);
  if (!entries.length) return void console.log(`nothing to purge: ${noneSelected(inQuarantine, o)}`);
  const about = {
    action: AUDITED.purge.action,
    connection: o.connection,
    ...(o.entity && o.erpId ? { record: `${o.entity}/${o.erpId}` } : {}),
  };
  const purging = () => purgeQuarantined(rt, entries);
  const r = await audited(cliAuditor(rt), about, purging, (x) => ({
    detail: AUDITED.purge.detail(x.purged, o.entity, o.erpId),
  }));
  console.log(`purged ${r.purged} record(s)`);
}

/** `erp-sync dlq list|show|replay|purge --connection ID [--entity E] [--erp-id X]` */
export function registerDlqCommand(program: Command): void {
  const dlq = program
    .command('dlq')
    .description('records that could not be synced (quarantine): list, show, replay, purge');
  const common = (c: Command) =>
    c
      .addOption(requiredOption('--connection <id>', 'connection id'))
      .option('--entity <name>', 'invoices | credit-notes | customers', entityOption)
      .option('--erp-id <id>', 'one record')
      .option('--json', 'print JSON')
      .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

  common(dlq.command('list').description('list quarantined records with their reason')).action(async (o: Opts) =>
    withRuntime(o.config, (rt) => listDlq(rt, o)),
  );
  common(dlq.command('show').description('show one quarantined record in full')).action(async (o: Opts) => {
    const { entity, erpId } = o;
    if (!entity || !erpId) throw new ConfigError('dlq show needs --entity and --erp-id');
    await withRuntime(o.config, (rt) => showDlq(rt, o, entity, erpId));
  });
  common(dlq.command('replay').description('try quarantined records again (all matching, or one)')).action(
    async (o: Opts) => withRuntime(o.config, (rt) => replayDlq(rt, o)),
  );
  common(dlq.command('purge').description('remove quarantined records (all matching, or one) — they are NOT synced'))
    .option('--all', 'required to purge every record of the connection')
    .action(async (o: Opts) => {
      if (!o.entity && !o.erpId && !o.all)
        throw new ConfigError('dlq purge removes records for good: name --entity/--erp-id, or pass --all');
      await withRuntime(o.config, (rt) => purgeDlq(rt, o));
    });
}
