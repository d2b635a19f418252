import { isAgentConnection } from '../connectors/tally/streams/agent-mode.js';
import type { Runtime } from '../jobs/runtime.js';
import type { ConnectionConfig } from '../src/config.js';

/** What the worker knows of a connection's agent (Tally in agent mode), as `connections`, `status` and the API show it. */
export interface AgentView {
  /** When it last pushed a batch or a heartbeat (null: never). */
  lastContactAt: string | null;
  /** Seconds since then (null: never); ErpSyncAgentSilent fires past 26 h. */
  silentSeconds: number | null;
  /** The agent's version as it said. */
  version: string | null;
  /** AlterIDs it has seen in Tally and the worker has not yet acknowledged, as it last said. */
  backlog: number | null;
  /** The AlterID the worker holds each stream up to. */
  acked: Record<string, number>;
  /** When its credential was made (null: none, the agent is refused: run `erp-sync connect`). */
  credentialCreatedAt: string | null;
}

/** The agent of an agent-mode connection, or null for a connection the worker reads itself. */
export async function agentView(
  rt: Pick<Runtime, 'agentInbox' | 'agentCredentials'>,
  c: Pick<ConnectionConfig, 'id' | 'system' | 'settings'>,
  now: number,
): Promise<AgentView | null> {
  if (!isAgentConnection(c)) return null;
  const contact = await rt.agentInbox.contact(c.id);
  const last = contact?.lastContactAt ?? null;
  return {
    lastContactAt: last,
    silentSeconds: last === null ? null : Math.max(0, Math.round((now - Date.parse(last)) / 1000)),
    version: contact?.agentVersion ?? null,
    backlog: contact?.backlog ?? null,
    acked: contact?.acked ?? {},
    credentialCreatedAt: (await rt.agentCredentials.createdAt(c.id)) ?? null,
  };
}

/** One line for the command line: "last contact … ago, version …, backlog …". */
export function agentLine(a: AgentView): string {
  const credential = a.credentialCreatedAt ? '' : '; NO CREDENTIAL (erp-sync connect --connection …)';
  if (a.lastContactAt === null) return `never heard from${credential}`;
  return `last contact ${a.lastContactAt} (${a.silentSeconds} s ago), version ${a.version ?? '?'}, backlog ${a.backlog ?? 0} AlterIDs${credential}`;
}
