import type { Command } from 'commander';
import { commandPath } from './usage-errors.js';

/**
 * `erp-sync demo --help` runs the default subcommand (`demo pipeline`) when asked for work, so its help
 * lists that subcommand's options too: every option is listed under the command a user types.
 */
export function listDefaultCommandOptions(cmd: Command): void {
  // commander keeps `{ isDefault: true }` in this field and offers no getter for it; read-only here.
  const name = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  const sub = name ? cmd.commands.find((c) => c.name() === name) : undefined;
  if (sub) {
    cmd.addHelpText('after', () => {
      const help = sub.createHelp();
      const options = help.visibleOptions(sub).filter((o) => o.long !== '--help');
      const width = Math.max(...options.map((o) => help.optionTerm(o).length));
      const lines = options.map((o) => `  ${help.optionTerm(o).padEnd(width)}  ${help.optionDescription(o)}`);
      return `\nOptions of \`${commandPath(cmd)}\` (the same as \`${commandPath(sub)}\`):\n${lines.join('\n')}\n`;
    });
  }
  for (const c of cmd.commands) listDefaultCommandOptions(c);
}
