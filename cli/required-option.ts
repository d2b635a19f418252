import { type Command, Option } from 'commander';

const REQUIRED = new WeakSet<Option>();

/**
 * An option the command cannot run without, marked "(required)" in its help. Checked after commander's
 * own parse (see `checkRequiredOptions`) rather than with `requiredOption`, whose check runs before the
 * unknown-option check: `backfill --bogus` then named a missing `--connection` instead of `--bogus`.
 */
export function requiredOption(
  flags: string,
  description: string,
  parse?: (value: string, previous: unknown) => unknown,
): Option {
  const option = new Option(flags, `${description} (required)`);
  if (parse) option.argParser(parse);
  REQUIRED.add(option);
  return option;
}

/** A preAction hook: the first required option of the command (or its parents) that was not given is a usage error. */
export function checkRequiredOptions(_hooked: Command, action: Command): void {
  for (let cmd: Command | null = action; cmd; cmd = cmd.parent) {
    for (const option of cmd.options) {
      if (REQUIRED.has(option) && cmd.getOptionValue(option.attributeName()) === undefined)
        action.error(`required option '${option.flags}' not specified`, {
          exitCode: 1,
          code: 'commander.missingMandatoryOptionValue',
        });
    }
  }
}
