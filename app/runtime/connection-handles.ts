import { isDeepStrictEqual } from 'node:util';
import { connectorFor } from '../../connectors/registry.js';
import { type BillingTarget, billingTargetOf } from '../../src/billing/billing-target.js';
import type { BillingClient } from '../../src/billing/client.js';
import type { AppConfig, ConnectionConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors/index.js';
import type { VendorClient } from '../../src/http/vendor-client.js';
import type { LookupsStore } from '../../src/connector/lookups-cache.js';
import type { AgentInboxReader } from '../../src/connector/agent-inbox-reader.js';
import type { BillingKeyBudgets } from '../../src/pipeline/billing-key-budgets.js';
import type { ConnectionBilling, ConnectionHandle } from '../../jobs/runtime.js';
import { createVendorClient, type VendorClientParts } from './vendor-clients.js';

/** The configured connections and the billing target of each (a removed connection keeps its target). */
export interface ConnectionDirectory {
  byId: Map<string, ConnectionConfig>;
  targets: Map<string, BillingTarget>;
}

/**
 * The runtime's connection lookups over `directory`: each connection's handle, its vendor client (built
 * once, until a reload changes its config) and its billing company (built once per billing target).
 * `reconfigure` swaps in a reloaded config's connections.
 */
export function connectionHandles(
  config: AppConfig,
  directory: ConnectionDirectory,
  parts: VendorClientParts & {
    billingClient(t: BillingTarget): BillingClient;
    billingKeyBudgets: Pick<BillingKeyBudgets, 'take'>;
    /** Where a connection's lookups are shared by every process (src/pipeline/shared-lookups.ts). */
    lookupsStore?(connectionId: string): LookupsStore;
    /** What the connection's agent pushed (src/pipeline/agent-inbox.ts), for connectors in agent mode. */
    agentInbox?(connectionId: string): AgentInboxReader;
  },
) {
  const perKey = config.billing.rateLimit.scope === 'key';
  const unknown = (id: string) =>
    new ConfigError(`unknown connection "${id}" (configured: ${[...directory.byId.keys()].join(', ')})`);
  const connectionConfig = (id: string) => {
    const c = directory.byId.get(id);
    if (!c) throw unknown(id);
    return { config: c, connector: connectorFor(c.system) };
  };
  const clients = new Map<string, VendorClient>();
  const vendorClient = (id: string): VendorClient => {
    let client = clients.get(id);
    if (client) return client;
    const { config: c, connector } = connectionConfig(id);
    client = createVendorClient(c, connector, parts);
    clients.set(id, client);
    return client;
  };
  // Built once per billing target (a reload makes new targets): every upsert asks for its connection's.
  const billings = new WeakMap<BillingTarget, ConnectionBilling>();
  const billingOfTarget = (t: BillingTarget): ConnectionBilling => ({
    client: parts.billingClient(t),
    company: t.company,
    keyId: t.keyId,
    baseCurrency: t.baseCurrency,
    canAttach: Boolean(t.attachmentKey),
    budget: perKey ? { take: (signal) => parts.billingKeyBudgets.take(t.keyId, signal) } : { take: async () => {} },
  });
  const billingOf = (id: string): ConnectionBilling => {
    const t = directory.targets.get(id);
    if (!t) throw unknown(id);
    let made = billings.get(t);
    if (!made) billings.set(t, (made = billingOfTarget(t)));
    return made;
  };
  const connection = (id: string): ConnectionHandle => {
    const { config: c, connector } = connectionConfig(id);
    return {
      config: c,
      connector,
      billing: billingOf(c.id),
      readContext: (read) => ({
        ...read,
        connectionId: c.id,
        http: vendorClient(c.id),
        settings: c.settings,
        ...(parts.lookupsStore ? { lookupsStore: parts.lookupsStore(c.id) } : {}),
        ...(parts.agentInbox ? { agentInbox: parts.agentInbox(c.id) } : {}),
      }),
    };
  };
  const reconfigure = (next: AppConfig) => {
    const before = directory.byId;
    directory.byId = new Map(next.connections.map((c) => [c.id, c]));
    // A connection's billing keys are its own or the running default's (billing.* changes need a restart).
    // Removed connections keep theirs: their upserts already queued still go where they were read for.
    directory.targets = new Map([
      ...directory.targets,
      ...next.connections.map((c) => [c.id, billingTargetOf(config, c)] as const),
    ]);
    for (const id of [...clients.keys()])
      if (!isDeepStrictEqual(before.get(id), directory.byId.get(id))) clients.delete(id);
  };
  return { connection, vendorClient, billingOf, reconfigure };
}
