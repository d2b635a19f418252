import type { Command } from 'commander';

/** `erp-sync dlq list`: the words a user types for a command. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * commander's message as one line: without its "error: " prefix, and an invalid option value said by
 * our parser alone (commander prefixes it with "option '--port <n>' argument '70000' is invalid.").
 */
export function usageLine(message: string, cmd: Command): string {
  const text = message
    .trim()
    .replace(/^error: /, '')
    .replace(/^option '[^']*' argument '.*' is invalid\. /s, '')
    .replace(/\s*\n\s*/g, ' ');
  return `erp-sync: ${text}; see \`${commandPath(cmd)} --help\``;
}

/**
 * Every command's usage errors (unknown option or command, missing option, bad value) as one line on
 * stderr naming the help to read, instead of the whole help. Applied to the finished command tree.
 */
export function configureUsageErrors(cmd: Command): void {
  cmd.configureOutput({ outputError: (message, write) => write(`${usageLine(message, cmd)}\n`) });
  for (const sub of cmd.commands) configureUsageErrors(sub);
}
