import { ConfigError } from '../src/errors/index.js';

/** One end of a command's range: the flag that gave it and its value (a YYYY-MM-DD day or an instant). */
export interface RangeEnd<T extends string | Date> {
  flag: string;
  value: T;
}

const text = (v: string | Date) => (typeof v === 'string' ? v : v.toISOString());
const order = (v: string | Date) => (typeof v === 'string' ? v : v.getTime());

/**
 * Every command's range (backfill and reconcile `--from/--to`, history `--since/--until`) checked here,
 * before anything is read: a reversed range is a usage error (exit 2) naming both flags, never an empty
 * result. An auditor reading "0 written" from a typo would conclude nothing was written. Where the end is
 * exclusive (`--until`), an end equal to the start is an empty range and refused too.
 */
export function orderedRange<T extends string | Date>(
  from: RangeEnd<T>,
  to: RangeEnd<T>,
  opts: { endExclusive?: boolean } = {},
): { from: T; to: T } {
  const [a, b] = [order(from.value), order(to.value)];
  if (a > b) throw new ConfigError(`${from.flag} ${text(from.value)} is after ${to.flag} ${text(to.value)}`);
  if (opts.endExclusive && a === b)
    throw new ConfigError(
      `${to.flag} ${text(to.value)} equals ${from.flag} (${to.flag} is exclusive): the range is empty`,
    );
  return { from: from.value, to: to.value };
}
