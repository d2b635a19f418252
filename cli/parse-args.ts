import { InvalidArgumentError } from 'commander';
import { IsoDate } from '../src/billing/schemas/index.js';
import { ConfigError } from '../src/errors/index.js';
import { placeInstant } from '../src/mapping/time.js';

/** "KEY=COMPANY" → { key, companyId }; a clear error for anything else. */
export function parseKeyPair(value: string, flag: string): { key: string; companyId: string } {
  const i = value.indexOf('=');
  if (i <= 0 || i === value.length - 1) {
    throw new ConfigError(`${flag} expects KEY=COMPANY, got "${value.length > 3 ? `${value.slice(0, 3)}…` : value}"`);
  }
  return { key: value.slice(0, i), companyId: value.slice(i + 1) };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** An option parser for whole numbers; a bad value is a usage error (one line naming the command's help). */
export function intOption(name: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        `${name} expects a whole number ${max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`}, got "${value}"`,
      );
    return n;
  };
}

/** The highest TCP port (ports are 0, meaning any free one, to this). */
export const MAX_PORT = 65535;

/** A YYYY-MM-DD argument, checked after parsing (the message names the flag and what it got). */
export function isoDate(value: string, flag: string): string {
  if (!IsoDate.safeParse(value).success) throw new ConfigError(`${flag} expects a date YYYY-MM-DD, got "${value}"`);
  return value;
}

/**
 * A day YYYY-MM-DD (from its UTC midnight) or an ISO instant with its zone (2025-06-01T09:00:00Z,
 * 2025-06-01T14:30:00+05:30) → UTC ISO with ms. A time without a zone is refused: read in the host's zone
 * it would mean a different instant on every machine.
 */
export function instantArg(value: string, flag: string): string {
  if (IsoDate.safeParse(value).success) return `${value}T00:00:00.000Z`;
  return placeInstant(value, flag, {
    fail: () =>
      new ConfigError(
        `${flag} expects a day YYYY-MM-DD (UTC) or an ISO instant with its zone (2025-06-01T09:00:00Z, 2025-06-01T14:30:00+05:30), got "${value}"`,
      ),
  });
}
