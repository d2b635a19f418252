import { validateSettings } from '../connectors/registry.js';
import type { Runtime } from '../jobs/runtime.js';
import { billingTargetOf } from '../src/billing/billing-target.js';
import type { ConnectionConfig } from '../src/config.js';
import { ConnectionChangeRefusedError } from '../src/errors/index.js';
import type { StoredConnection } from '../src/pipeline/stored-connections.js';
import { formatIssues, parseStoredConnection } from '../src/stored-connection-config.js';

/** Who changes connections: a name for the record, and the billing companies they are limited to (none: every one). */
export interface ConnectionAdmin {
  who: string;
  companies?: ReadonlySet<string>;
}

export type StoredConnectionsRuntime = Pick<Runtime, 'config' | 'storedConnections' | 'queues' | 'logger'>;

/** Where the checks read the environment (`${VAR}`) and the connectors' settings schemas: the process's, unless a test says. */
export interface ValidationSources {
  env?: NodeJS.ProcessEnv;
}

export const refused = (kind: ConnectionChangeRefusedError['refusal'], message: string, path?: string) =>
  new ConnectionChangeRefusedError(kind, message, path);

/** The raw entry as the connection it runs as, checked against the running connections; else 400 with the first issue's path. */
export function validated(
  rt: Pick<Runtime, 'config'>,
  raw: unknown,
  webhookSecret: string | undefined,
  sources: ValidationSources = {},
): ConnectionConfig {
  const r = parseStoredConnection(raw, {
    env: sources.env ?? process.env,
    validateSettings,
    base: rt.config,
    webhookSecret,
  });
  if (r.ok) return r.value;
  throw refused('invalid', `the connection is invalid: ${formatIssues(r.issues)}`, r.issues[0]?.path.join('.'));
}

/** The billing company a connection writes to (a name, or key-<fingerprint>). */
export const companyOf = (rt: Pick<Runtime, 'config'>, c: ConnectionConfig): string =>
  billingTargetOf(rt.config, c).company;

/** A company-limited admin may create or change only connections of its companies. */
export function assertCompany(rt: Pick<Runtime, 'config'>, c: ConnectionConfig, by: ConnectionAdmin): string {
  const company = companyOf(rt, c);
  if (by.companies && !by.companies.has(company))
    throw refused(
      'forbidden',
      `${by.who} manages the connections of ${[...by.companies].join(', ')}, not of "${company}"`,
    );
  return company;
}

/**
 * The stored connection `id` that is there (not removed) and the caller's to manage; a YAML connection is
 * read-only (409), an unknown id or another company's connection is not found (404, as the API answers
 * for a connection a caller may not see).
 */
export async function managedConnection(
  rt: StoredConnectionsRuntime,
  id: string,
  by: ConnectionAdmin,
): Promise<{ entry: StoredConnection; running: ConnectionConfig | undefined }> {
  const entry = await rt.storedConnections.get(id);
  const running = rt.config.connections.find((c) => c.id === id);
  if (!entry || entry.removedAt !== undefined) {
    if (running && (!by.companies || by.companies.has(companyOf(rt, running))))
      throw refused('conflict', yamlOwned(id));
    throw refused('not-found', `no connection "${id}"`);
  }
  const current = running ?? validatedOrUndefined(rt, entry);
  if (by.companies && (!current || !by.companies.has(companyOf(rt, current))))
    throw refused('not-found', `no connection "${id}"`);
  return { entry, running: current };
}

export const yamlOwned = (id: string) =>
  `connection "${id}" is written in the YAML config: it is read-only through the API and the command line (change the YAML and reload)`;

function validatedOrUndefined(rt: Pick<Runtime, 'config'>, entry: StoredConnection): ConnectionConfig | undefined {
  try {
    return validated(rt, entry.raw, entry.webhookSecret === undefined ? undefined : 'x'.repeat(32));
  } catch {
    return undefined;
  }
}

/** What the API and the command line show of a stored connection: its entry as written (no secret is in it). */
export function storedView(entry: StoredConnection, company: string | undefined) {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    id: entry.id,
    origin: 'api' as const,
    company: company ?? null,
    connection: entry.raw,
    webhookSecret: entry.webhookSecret === undefined ? ('none' as const) : ('set' as const),
    createdAt: iso(entry.createdAt)!,
    createdBy: entry.createdBy,
    updatedAt: iso(entry.updatedAt)!,
    updatedBy: entry.updatedBy,
    removedAt: iso(entry.removedAt),
  };
}
export type StoredView = ReturnType<typeof storedView>;
