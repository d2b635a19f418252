import { describe, expect, it } from 'vitest';
import { instantArg } from '../../cli/parse-args.js';
import { ConfigError } from '../../src/errors/index.js';
import { inHostZone } from '../support/host-zone.js';

/**
 * Instants on the command line (`state set --cursor`, `preview --from`): a day is its UTC midnight, an
 * instant is placed by the zone it carries, and a time without a zone is refused, whatever the host's zone.
 */
describe.each(['Asia/Kolkata', 'America/New_York', 'UTC'])('on a host whose zone is %s', (zone) => {
  inHostZone(zone);

  it.each([
    ['a day', '2025-06-01', '2025-06-01T00:00:00.000Z'],
    ['the day New York springs forward', '2026-03-08', '2026-03-08T00:00:00.000Z'],
    ['an instant in UTC', '2025-06-01T09:00:00Z', '2025-06-01T09:00:00.000Z'],
    ['an instant just after midnight in India', '2025-06-01T00:15:00+05:30', '2025-05-31T18:45:00.000Z'],
    ['the repeated hour when New York falls back (EDT)', '2026-11-01T01:30:00-04:00', '2026-11-01T05:30:00.000Z'],
    ['the repeated hour when New York falls back (EST)', '2026-11-01T01:30:00-05:00', '2026-11-01T06:30:00.000Z'],
  ])('given %s (%s), then it is %s', (_, value, expected) => {
    expect(instantArg(value, '--from')).toBe(expected);
  });

  it.each([['2025-06-01T10:00:00'], ['2025-06-31'], ['2025-06-01 10:00:00Z'], ['June 1']])(
    'given %j, then a ConfigError naming the flag',
    (value) => {
      expect(() => instantArg(value, '--cursor')).toThrow(ConfigError);
      expect(() => instantArg(value, '--cursor')).toThrow(
        /^--cursor expects a day YYYY-MM-DD \(UTC\) or an ISO instant/,
      );
    },
  );
});
