import { isAgentConnection } from '../connectors/tally/streams/agent-mode.js';
import type { AppConfig, ConnectionConfig } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';
import type { AgentCredentials } from '../src/pipeline/agent-credentials.js';

function agentConnection(config: Pick<AppConfig, 'connections'>, id: string): ConnectionConfig {
  const c = config.connections.find((x) => x.id === id);
  if (!c) throw new ConfigError(`unknown connection "${id}"`);
  if (!isAgentConnection(c))
    throw new ConfigError(`connection ${id} is not a Tally connection in agent mode (settings.mode: agent)`);
  return c;
}

/**
 * A new agent credential for the connection: returned once (the caller shows it to the person and
 * never logs it), stored only as its hash; any earlier credential stops working at once.
 */
export async function createAgentCredential(
  rt: { agentCredentials: AgentCredentials },
  config: Pick<AppConfig, 'connections'>,
  connection: string,
): Promise<{ credential: string; createdAt: string }> {
  agentConnection(config, connection);
  return rt.agentCredentials.create(connection);
}

/** Revokes the connection's agent credential: its agent is refused (401) until a new one is made. */
export async function revokeAgentCredential(
  rt: { agentCredentials: AgentCredentials },
  config: Pick<AppConfig, 'connections'>,
  connection: string,
): Promise<boolean> {
  agentConnection(config, connection);
  return rt.agentCredentials.revoke(connection);
}

export { isAgentConnection };
