import { type Command, InvalidArgumentError } from 'commander';
import type { UpsertPayload } from '../../jobs/catalog.js';
import { enqueueUpserts, upsertJobId, type UpsertJob } from '../../jobs/enqueue-upserts.js';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import type { Runtime } from '../../jobs/runtime.js';
import { ConfigError } from '../../src/errors/index.js';
import type { QuarantineEntry } from '../../src/pipeline/quarantine.js';
import { withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';

type Opts = { connection: string; entity?: string; erpId?: string; all?: boolean; json?: boolean; config?: string };

function entityOption(value: string): string {
  if (!isEntityName(value)) throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

function select(entries: QuarantineEntry[], o: Opts): QuarantineEntry[] {
  return entries.filter((e) => (!o.entity || e.entity === o.entity) && (!o.erpId || e.erpId === o.erpId));
}

/** The connection's quarantine, and the entries --entity/--erp-id select (an unknown connection throws). */
async function selected(rt: Runtime, o: Opts): Promise<{ all: QuarantineEntry[]; entries: QuarantineEntry[] }> {
  rt.connection(o.connection);
  const all = await rt.quarantine.list(o.connection);
  return { all, entries: select(all, o) };
}

/** Why nothing was selected: the quarantine is empty, or holds records none of which match the filters. */
function noneSelected(all: QuarantineEntry[], o: Opts): string {
  if (!all.length) return `quarantine of ${o.connection} is empty`;
  const filters = [o.entity && `--entity ${o.entity}`, o.erpId && `--erp-id ${o.erpId}`].filter(Boolean).join(' ');
  return `no quarantined record matches ${filters} (${all.length} record(s) in quarantine for ${o.connection})`;
}

/**
 * Replays quarantined records. Upsert failures are re-enqueued from their stored payload (a new job id,
 * so no completed job of the same content can absorb it); map failures rewind the stream's checkpoint to just
 * before the oldest replayed version and pull again, so the record is read and mapped anew.
 */
export async function replay(rt: Runtime, entries: QuarantineEntry[]): Promise<{ reenqueued: number; repulled: string[] }> {
  const rewind = new Map<string, string>();
  const jobs: UpsertJob[] = [];
  for (const e of entries) {
    if (e.stage === 'upsert' && e.payload) {
      const p = e.payload as UpsertPayload;
      jobs.push({ name: 'upsert', data: p, opts: { jobId: `${upsertJobId(p.connectionId, p.entity, p.erpId, p.hash)}-r${Date.now().toString(36)}` } });
    } else {
      const key = e.entity;
      const before = new Date(Date.parse(e.version) - 1000).toISOString();
      if (!rewind.has(key) || before < rewind.get(key)!) rewind.set(key, before);
    }
  }
  // Tracked in flight like a pull's records: a replayed record is accounted for until its outcome.
  await enqueueUpserts(rt, jobs);
  const reenqueued = jobs.length;
  for (const [entity, cursor] of rewind) {
    // Never forward, and safe against a pull saving at the same moment (Checkpoints.rewindCheckpoint).
    await rt.checkpoints.rewindCheckpoint(entries[0]!.connection, entity, cursor);
    await rt.queues.pull.add('pull', { connectionId: entries[0]!.connection, entity }, { priority: 1 });
  }
  return { reenqueued, repulled: [...rewind.keys()] };
}

/** `erp-sync dlq list|show|replay|purge --connection ID [--entity E] [--erp-id X]` */
export function registerDlqCommand(program: Command): void {
  const dlq = program.command('dlq').description('records that could not be synced (quarantine): list, show, replay, purge');
  const common = (c: Command) =>
    c
      .addOption(requiredOption('--connection <id>', 'connection id'))
      .option('--entity <name>', 'invoices | credit-notes | customers', entityOption)
      .option('--erp-id <id>', 'one record')
      .option('--json', 'print JSON')
      .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

  common(dlq.command('list').description('list quarantined records with their reason')).action(async (o: Opts) =>
    withRuntime(o.config, async (rt) => {
      const { all, entries } = await selected(rt, o);
      if (o.json)
        return void console.log(
          JSON.stringify(
            entries.map(({ payload: _p, ...e }) => e),
            null,
            2,
          ),
        );
      if (!entries.length) return void console.log(noneSelected(all, o));
      for (const e of entries) console.log(`${e.entity}/${e.erpId}  ${e.reason.padEnd(20)} ${e.stage.padEnd(6)} v${e.version}  ${e.message}`);
      console.log(`${entries.length} record(s)`);
    }),
  );
  common(dlq.command('show').description('show one quarantined record in full')).action(async (o: Opts) => {
    const { entity, erpId } = o;
    if (!entity || !erpId) throw new ConfigError('dlq show needs --entity and --erp-id');
    await withRuntime(o.config, async (rt) => {
      rt.connection(o.connection);
      const e = await rt.quarantine.get(o.connection, entity, erpId);
      if (!e) {
        console.log(`${entity}/${erpId} is not in quarantine`);
        process.exitCode = 1;
        return;
      }
      console.log(JSON.stringify(e, null, 2));
    });
  });
  common(dlq.command('replay').description('try quarantined records again (all matching, or one)')).action(async (o: Opts) =>
    withRuntime(o.config, async (rt) => {
      const { all, entries } = await selected(rt, o);
      if (!entries.length) return void console.log(`nothing to replay: ${noneSelected(all, o)}`);
      const r = await replay(rt, entries);
      console.log(
        `replayed ${entries.length}: ${r.reenqueued} re-enqueued for upsert${r.repulled.length ? `, re-pulling ${r.repulled.join(', ')}` : ''}; they leave quarantine when they succeed`,
      );
    }),
  );
  common(dlq.command('purge').description('remove quarantined records (all matching, or one) — they are NOT synced'))
    .option('--all', 'required to purge every record of the connection')
    .action(async (o: Opts) => {
      if (!o.entity && !o.erpId && !o.all) throw new ConfigError('dlq purge removes records for good: name --entity/--erp-id, or pass --all');
      await withRuntime(o.config, async (rt) => {
        const { all, entries } = await selected(rt, o);
        if (!entries.length) return void console.log(`nothing to purge: ${noneSelected(all, o)}`);
        for (const e of entries) await rt.quarantine.remove(e.connection, e.entity, e.erpId);
        console.log(`purged ${entries.length} record(s)`);
      });
    });
}
