import { type Command, InvalidArgumentError } from 'commander';
import { withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';

/** A token's name as the config takes it (`http.tokens[].name`), or `adminToken`. */
const tokenName = (value: string): string => {
  if (/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(value)) return value;
  throw new InvalidArgumentError(`--token: "${value}" is not a token name (1–64 letters, digits, dots, dashes or @)`);
};

/**
 * `erp-sync console sessions end --token NAME`: ends every console session signed in with the token of
 * that name, whatever value it had (docs/console.md, "Rotating a token"). A session of a rotated or removed
 * token ends at its next request anyway; this ends them now, and also those of a token that keeps its value.
 */
export function registerConsoleCommand(program: Command): void {
  const sessions = program
    .command('console')
    .description("the console's sessions")
    .command('sessions')
    .description('console sessions: end those of a token');
  sessions
    .command('end')
    .description('end every console session signed in with the token of that name (in every worker at once)')
    .addOption(requiredOption('--token <name>', 'the token\'s name: http.tokens[].name, or "adminToken"', tokenName))
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (o: { token: string; config?: string }) => {
      await withRuntime(o.config, async (rt) => {
        const ended = await rt.consoleSessions.endAllOf(o.token);
        console.log(`${o.token}: ${ended} console session(s) ended; its next sign-in opens a new one`);
      });
    });
}
