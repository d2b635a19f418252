import { validateSettings } from '../connectors/registry.js';
import type { Runtime } from '../jobs/runtime.js';
import type { AppConfig, ConnectionConfig } from '../src/config.js';
import { formatIssues, parseStoredConnection } from '../src/stored-connection-config.js';

/**
 * `config` with the connections stored in Redis (created through the API or the command line) after its
 * own (the YAML's), each filled from this process's environment and checked as at creation. On an id
 * clash the YAML's connection wins and the stored one is left out (logged): the API refuses to create
 * one, but the YAML may gain that id later. A stored connection this process cannot run (a `${VAR}` it
 * lacks, a sealing key it does not hold) is left out and logged, the others applied.
 */
export async function withStoredConnections(
  rt: Pick<Runtime, 'storedConnections' | 'logger'>,
  config: AppConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AppConfig> {
  const own = new Set(config.connections.map((c) => c.id));
  const added: ConnectionConfig[] = [];
  for (const entry of await rt.storedConnections.list()) {
    if (entry.removedAt !== undefined) continue;
    if (own.has(entry.id)) {
      rt.logger.error(
        { connection: entry.id },
        'a connection stored through the API has the id of a YAML connection: the YAML one runs, the stored one is left out (remove one of them)',
      );
      continue;
    }
    let webhookSecret: string | undefined;
    try {
      webhookSecret = rt.storedConnections.openSecret(entry);
    } catch (e) {
      rt.logger.error({ connection: entry.id, error: (e as Error).message }, 'stored connection left out');
      continue;
    }
    const base = { ...config, connections: [...config.connections, ...added] };
    const r = parseStoredConnection(entry.raw, { env, validateSettings, base, webhookSecret });
    if (r.ok) added.push(r.value);
    else rt.logger.error({ connection: entry.id, errors: formatIssues(r.issues) }, 'stored connection left out');
  }
  return added.length ? { ...config, connections: [...config.connections, ...added] } : config;
}
