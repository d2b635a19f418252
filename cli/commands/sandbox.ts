import type { Command } from 'commander';
import { PROFILES } from '../../sandbox/profiles.js';
import { registerAllCommand } from '../sandbox/all-command.js';
import { registerBillingCommand, registerErpCommands } from '../sandbox/single-commands.js';

/** `erp-sync sandbox [all|billing|zoho-books|quickbooks|xero|tally]`: the built-in emulators, for trying the worker before production. */
export function registerSandboxCommand(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('run the built-in emulators (billing service and ERPs) on loopback');
  registerAllCommand(sandbox, PROFILES);
  registerBillingCommand(sandbox);
  registerErpCommands(sandbox, PROFILES);
}
