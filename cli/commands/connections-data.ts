import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { changeConnection } from '../../operations/change-connection.js';
import { createConnection } from '../../operations/create-connection.js';
import { removeConnection } from '../../operations/remove-connection.js';
import { ConfigError } from '../../src/errors/index.js';
import { cliAuditor, withRuntime } from '../context.js';

const configOption = (c: Command) =>
  c
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .option('--by <name>', 'who, for the audit log (default: $USER)')
    .option('--json', 'print JSON');

/** A connection entry (or a patch of one) from a YAML or JSON file, `-` for stdin: one object. */
async function entryFrom(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let v: unknown;
  try {
    v = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`${file} is not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new ConfigError(`${file} must hold one connection (a mapping, as one connections[] entry of the config)`);
  return v as Record<string, unknown>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Options = { config?: string; by?: string; json?: boolean };

/**
 * `erp-sync connections add FILE`, `connections set ID FILE` (a merge patch), `connections remove ID
 * [--purge]`: the connections stored in Redis, through the same operations as the API's
 * (operations/create-connection.ts, …), audited the same. Every running worker applies them within seconds.
 */
export function registerConnectionsDataCommands(connections: Command): void {
  configOption(
    connections
      .command('add')
      .description(
        'create a connection stored in Redis (not in the YAML): every worker starts it within seconds; `webhooks: {}` generates its webhook secret, printed once',
      )
      .argument('<file>', 'the connection as one connections[] entry, YAML or JSON (- for stdin); secrets as ${VAR}'),
  ).action(async (file: string, o: Options) => {
    const raw = await entryFrom(file);
    await withRuntime(o.config, async (rt) => {
      const by = cliAuditor(rt, o.by);
      const r = await audited(
        by,
        { action: AUDITED.create.action, connection: String(raw.id) },
        () => createConnection(rt, raw, { who: by.who }),
        (x) => ({ detail: AUDITED.create.detail(x.connection.company, x.webhookSecret !== undefined) }),
      );
      if (o.json) return void console.log(JSON.stringify(r, null, 2));
      console.log(
        `${r.connection.id}: created (company ${r.connection.company}); every worker starts it within seconds`,
      );
      if (r.webhookSecret) console.log(`webhook secret (shown this once; set it at the vendor): ${r.webhookSecret}`);
    });
  });

  configOption(
    connections
      .command('set')
      .description(
        'change a stored connection by a merge patch (keys to set; null removes one); YAML connections are read-only',
      )
      .argument('<id>', 'a connection created with `connections add` or the API')
      .argument('<file>', 'the patch, YAML or JSON (- for stdin)'),
  ).action(async (id: string, file: string, o: Options) => {
    const patch = await entryFrom(file);
    await withRuntime(o.config, async (rt) => {
      const by = cliAuditor(rt, o.by);
      const r = await audited(
        by,
        { action: AUDITED.change.action, connection: id },
        () => changeConnection(rt, id, patch, { who: by.who }),
        () => ({ detail: AUDITED.change.detail(Object.keys(patch).sort()) }),
      );
      if (o.json) return void console.log(JSON.stringify(r, null, 2));
      console.log(`${id}: changed ${Object.keys(patch).sort().join(', ')}; every worker applies it within seconds`);
      if (r.webhookSecret) console.log(`webhook secret (shown this once; set it at the vendor): ${r.webhookSecret}`);
    });
  });

  configOption(
    connections
      .command('remove')
      .description(
        'remove a stored connection: its schedules and queued jobs stop at once; its state is kept for storedConnections.retentionDays (default 30), or purged now with --purge',
      )
      .argument('<id>', 'a connection created with `connections add` or the API')
      .option('--purge', 'purge its state now (checkpoints, ledger, quarantine, history) and free the id'),
  ).action(async (id: string, o: Options & { purge?: boolean }) => {
    await withRuntime(o.config, async (rt) => {
      const by = cliAuditor(rt, o.by);
      const r = await audited(
        by,
        { action: AUDITED.remove.action, connection: id },
        () => removeConnection(rt, id, { who: by.who }, { purge: o.purge }),
        (x) => ({ detail: AUDITED.remove.detail(x) }),
      );
      if (o.json) return void console.log(JSON.stringify(r, null, 2));
      console.log(
        `${id}: removed; ${r.schedulers.length} scheduler(s) and ${r.removedJobs} queued job(s) stopped; ${r.purgedKeys === null ? `state kept until ${r.purgeAfter} (--purge to purge it now)` : `state purged (${r.purgedKeys} key(s))`}`,
      );
    });
  });
}
