import { openRuntime } from '../../app/create-runtime.js';
import { createAgentCredential, isAgentConnection, revokeAgentCredential } from '../../operations/agent-credential.js';
import { loadConfig, type SettingsValidator } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { configPath } from '../context.js';

/**
 * `erp-sync connect --connection <tally-agent-connection> [--revoke]`: for a Tally connection in agent
 * mode there is no OAuth; connect makes the agent's credential instead, prints it once (to give to
 * `erp-sync tally-agent --credential-file`), and stores only its hash. `--revoke` removes it. Returns the
 * exit code, or undefined when the connection is not an agent connection (the OAuth flow goes on).
 */
export async function connectAgent(
  o: { connection: string; config?: string; revoke?: boolean },
  validate: SettingsValidator,
): Promise<number | undefined> {
  const config = await loadConfig(configPath(o.config), process.env, validate);
  const conn = config.connections.find((c) => c.id === o.connection);
  if (!conn || !isAgentConnection(conn)) return undefined;
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', stderr: true });
  const rt = await openRuntime(config, logger, { allowEmbedded: false, patient: true });
  try {
    if (o.revoke) {
      const had = await revokeAgentCredential(rt, config, conn.id);
      console.log(
        had
          ? `${conn.id}: agent credential revoked; the agent is refused until connect makes a new one`
          : `${conn.id}: had no agent credential`,
      );
      return 0;
    }
    const { credential, createdAt } = await createAgentCredential(rt, config, conn.id);
    console.log(`${conn.id}: a new agent credential (made ${createdAt}; any earlier one no longer works).`);
    console.log('It is shown this once; only its hash is stored. Save it in a file on the PC running TallyPrime:');
    console.log(`  ${credential}`);
    console.log(
      `then run: erp-sync tally-agent --url <http.publicUrl> --connection ${conn.id} --credential-file <that file> --company "<company>"`,
    );
    return 0;
  } finally {
    await rt.close();
  }
}
