import { randomBytes } from 'node:crypto';
import {
  assertCompany,
  type ConnectionAdmin,
  refused,
  type StoredConnectionsRuntime,
  storedView,
  type StoredView,
  validated,
  type ValidationSources,
  yamlOwned,
} from './stored-connection-rules.js';

export interface CreatedConnection {
  connection: StoredView;
  /** The webhook secret generated for it (`webhooks: {}`): shown this once, stored sealed. */
  webhookSecret?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A new connection, stored in Redis: checked like a YAML one (src/stored-connection-config.ts: no secrets,
 * the same schema, the connector's settings, the billing rules), of a company the admin manages, with an
 * id no YAML connection and no other stored one holds (a removed one holds its id until it is purged).
 * Every worker applies it within seconds (app/stored-connections-watch.ts).
 */
export async function createConnection(
  rt: StoredConnectionsRuntime,
  raw: Record<string, unknown>,
  by: ConnectionAdmin,
  sources: ValidationSources = {},
): Promise<CreatedConnection> {
  const webhookSecret = isRecord(raw.webhooks) && raw.webhooks.secret === undefined ? newSecret() : undefined;
  const c = validated(rt, raw, webhookSecret, sources);
  const company = assertCompany(rt, c, by);
  const stored = await rt.storedConnections.get(c.id);
  if (stored?.removedAt !== undefined)
    throw refused(
      'conflict',
      `connection "${c.id}" was removed on ${new Date(stored.removedAt).toISOString()} and its state is kept: purge it (DELETE with purge, or erp-sync connections remove ${c.id} --purge) to use the id again`,
    );
  if (!stored && rt.config.connections.some((x) => x.id === c.id)) throw refused('conflict', yamlOwned(c.id));
  const now = Date.now();
  const entry = {
    id: c.id,
    raw,
    ...(webhookSecret ? { webhookSecret: rt.storedConnections.sealSecret(c.id, webhookSecret) } : {}),
    createdAt: now,
    createdBy: by.who,
    updatedAt: now,
    updatedBy: by.who,
  };
  if (!(await rt.storedConnections.create(entry)))
    throw refused('conflict', `connection "${c.id}" exists already: change it (PATCH, erp-sync connections set)`);
  return { connection: storedView(entry, company), ...(webhookSecret ? { webhookSecret } : {}) };
}

/** 24 random bytes in hex: 48 characters, over the schema's 32. */
export const newSecret = (): string => randomBytes(24).toString('hex');
