import { type ConnectionConfig, type SettingsValidator, configIssues } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';
import type { Connector } from '../src/connector/types.js';
import quickbooks from './quickbooks/index.js';
import tally from './tally/index.js';
import xero from './xero/index.js';
import zohoBooks from './zoho-books/index.js';

/** Every connector in this build, by the `system` name used in the config. */
const CONNECTORS: Partial<Record<ConnectionConfig['system'], Connector<any>>> = {
  'zoho-books': zohoBooks,
  quickbooks,
  xero,
  tally,
};

export function availableSystems(): string[] {
  return Object.keys(CONNECTORS);
}

export function connectorFor(system: ConnectionConfig['system']): Connector<any> {
  const c = CONNECTORS[system];
  if (!c)
    throw new ConfigError(
      `connector "${system}" is not available in this build (available: ${availableSystems().join(', ') || 'none'})`,
    );
  return c;
}

/**
 * Validates a connection's `settings` with its connector's schema (used by config parsing). Issues keep
 * their structure (path, zod code) so the config parser can place them and coerce whole-value `${VAR}`s.
 */
export const validateSettings: SettingsValidator = (system, settings) => {
  const c = CONNECTORS[system];
  if (!c)
    return {
      ok: false,
      issues: [
        {
          path: [],
          message: `connector "${system}" is not available in this build (available: ${availableSystems().join(', ') || 'none'})`,
        },
      ],
    };
  const r = c.settings.safeParse(settings);
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: configIssues(r.error) };
};
