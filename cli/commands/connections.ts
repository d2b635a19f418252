import { hostname, userInfo } from 'node:os';
import type { Command } from 'commander';
import { agentLine } from '../../operations/agent-view.js';
import {
  collectConnections,
  type ConnectionSummary as ConnectionView,
  type ConnectionsView,
} from '../../operations/list-connections.js';
import { pauseConnection } from '../../operations/pause-connection.js';
import { resumeConnection } from '../../operations/resume-connection.js';
import type { AppConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors/index.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { cliAuditor, loadAppConfig, withRuntime } from '../context.js';
import { registerConnectionsDataCommands } from './connections-data.js';
import { freshnessLine } from '../freshness-line.js';
import { progressLine } from '../progress-line.js';

/** A connection id from the config, or a ConfigError (exit 2) naming the configured ones. */
export function configuredConnection(config: Pick<AppConfig, 'connections'>, id: string): string {
  if (!config.connections.some((c) => c.id === id))
    throw new ConfigError(`unknown connection "${id}" (configured: ${config.connections.map((c) => c.id).join(', ')})`);
  return id;
}

/** Who paused: the operator's account and host, as far as the system says (free text, shown only). */
function operator(): string | undefined {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return undefined;
  }
}

function stateLine(c: ConnectionView): string {
  const parts: string[] = [];
  if (c.paused)
    parts.push(
      `PAUSED since ${c.paused.since}${c.paused.by ? ` by ${c.paused.by}` : ''}${c.paused.reason ? `: ${c.paused.reason}` : ''}`,
    );
  if (!c.credentials.ok) {
    parts.push(
      `CREDENTIALS REFUSED since ${c.credentials.refusedAt} (${c.credentials.failure}): re-authorise; see \`erp-sync token status --connection ${c.id}\``,
    );
  }
  if (c.parkedUntil)
    parts.push(`parked until ${c.parkedUntil} (${c.credentials.ok ? 'vendor quota' : 'rechecked then'})`);
  if (!c.vendor.up) parts.push(`vendor DOWN since ${c.vendor.downSince}: ${c.vendor.lastError}`);
  if (c.heldJobs)
    parts.push(
      `${c.heldJobs} job(s) held${c.paused ? '' : ' from a pause: run `erp-sync connections resume ' + c.id + '` again'}`,
    );
  return parts.length ? parts.join('; ') : 'running';
}

function quotaLine(q: ConnectionView['quota']): string {
  const used = q.used as { minute?: number; day?: number; inflight?: number };
  const of = (n: number | undefined, limit: number | undefined) => `${n ?? '-'}/${limit ? limit : '∞'}`;
  return `minute ${of(used.minute, q.limits.perMinute)}, day ${of(used.day, q.limits.perDay)}, in flight ${of(used.inflight, q.limits.concurrency)}`;
}

function print(view: ConnectionsView): void {
  for (const c of view.connections) {
    console.log(`${c.id} (${c.system}): ${stateLine(c)}`);
    console.log(`  ${'schedule'.padEnd(13)}every ${c.schedule.everySeconds} s: ${c.schedule.entities.join(', ')}`);
    if (c.webhooks)
      console.log(
        `  ${'webhooks'.padEnd(13)}${c.webhooks.mode === 'webhooks' ? `healthy: pulls every ${c.webhooks.pullEverySeconds} s as a safety net` : `polling: ${c.webhooks.reason}`}`,
      );
    for (const e of c.entities) {
      const lag = e.lagSeconds === null ? '' : ` (lag ${e.lagSeconds} s)`;
      console.log(
        `  ${e.entity.padEnd(13)}last run ${e.lastRun ?? 'never'}, last success ${e.lastSuccess ?? 'never'}${lag}`,
      );
      if (e.lastError) console.log(`  ${''.padEnd(13)}last error ${e.lastError.at}: ${e.lastError.message}`);
    }
    if (c.agent) console.log(`  ${'agent'.padEnd(13)}${agentLine(c.agent)}`);
    for (const p of c.progress) console.log(`  ${'running'.padEnd(13)}${progressLine(p)}`);
    console.log(`  ${'freshness'.padEnd(13)}${freshnessLine(c.freshness)}`);
    console.log(`  ${'quota used'.padEnd(13)}${quotaLine(c.quota)}`);
    const p = c.quota.projection;
    if (p)
      console.log(
        `  ${'projected'.padEnd(13)}${p.verdict === 'fits' ? '' : `${p.verdict.toUpperCase()}: `}${p.message}`,
      );
  }
}

const configOption = (c: Command) =>
  c.option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

/** `erp-sync connections [--json]`, `connections pause ID [--reason TEXT]`, `connections resume ID`. */
export function registerConnectionsCommand(program: Command): void {
  const connections = program
    .command('connections')
    .description(
      'each connection: running or paused, schedule, last success and lag, quota; pause, resume; add, set, remove (stored in Redis)',
    );
  registerConnectionsDataCommands(connections);

  configOption(
    connections
      .command('list', { isDefault: true })
      .description(
        'each connection: state (running, paused, reauthorise, parked, vendor down), schedule, last run and success per entity, lag, vendor quota used',
      )
      .option('--json', 'print JSON'),
  ).action(async (o: { json?: boolean; config?: string }) =>
    withRuntime(o.config, async (rt) => {
      const view = await collectConnections(rt);
      if (o.json) return void console.log(JSON.stringify(view, null, 2));
      print(view);
    }),
  );

  configOption(
    connections
      .command('pause')
      .description(
        'pause a connection: its pulls, upserts and reconciles are held (not run, not failed) from their next start until it is resumed',
      )
      .argument('<id>', 'connection id from the config')
      .option('--reason <text>', 'why, shown by `connections` and `status`'),
  ).action(async (id: string, o: { reason?: string; config?: string }) => {
    configuredConnection(await loadAppConfig(o.config), id);
    await withRuntime(o.config, async (rt) => {
      const pausing = () => pauseConnection(rt, id, { by: operator(), reason: o.reason });
      const told = (r: { changed: boolean }) => ({ detail: AUDITED.pause.detail(r, o.reason) });
      const { pause, changed } = await audited(
        cliAuditor(rt),
        { action: AUDITED.pause.action, connection: id },
        pausing,
        told,
      );
      const since = new Date(pause.since).toISOString();
      if (!changed)
        return void console.log(
          `${id}: already paused since ${since}${pause.reason ? ` (${pause.reason})` : ''}; nothing changed`,
        );
      console.log(
        `${id}: paused since ${since}; its jobs are held from their next start (jobs running now finish). Resume: erp-sync connections resume ${id}`,
      );
    });
  });

  configOption(
    connections
      .command('resume')
      .description('resume a paused connection: its held jobs are released at once and each entity is pulled once')
      .argument('<id>', 'connection id from the config'),
  ).action(async (id: string, o: { config?: string }) => {
    configuredConnection(await loadAppConfig(o.config), id);
    await withRuntime(o.config, async (rt) => {
      const about = { action: AUDITED.resume.action, connection: id };
      const r = await audited(
        cliAuditor(rt),
        about,
        () => resumeConnection(rt, id),
        (x) => ({
          detail: AUDITED.resume.detail(x),
        }),
      );
      const released = `released ${r.released} held job(s)`;
      if (!r.pause) return void console.log(`${id}: was not paused; ${r.released ? released : 'nothing to resume'}`);
      const pulls = r.pulls.length ? `; pulling ${r.pulls.map((p) => p.entity).join(', ')} now` : '';
      console.log(`${id}: resumed (paused since ${new Date(r.pause.since).toISOString()}); ${released}${pulls}`);
    });
  });
}
