import { RequestError } from './tdl-request.js';

/**
 * The subset of TDL formulae the emulator evaluates in a collection's FILTER: comparisons of a method
 * (`$AlterID`, `$Date`, `$VoucherTypeName`, `$Parent`, `$GUID`, `$IsCancelled`) with a number, a quoted
 * string or `$$Date:"YYYYMMDD"`, joined by AND / OR (AND binds first; no parentheses). Enough for what a
 * connector sends; anything else is refused by name, never evaluated loosely.
 */
export type Lookup = (method: string) => string | number | undefined;

const COMPARISON = /^\$([A-Za-z]+)\s*(>=|<=|<>|=|>|<)\s*(.+)$/;

function literal(raw: string): string | number {
  const text = raw.trim();
  const date = /^\$\$Date:"(\d{8})"$/i.exec(text);
  if (date) return Number(date[1]);
  const quoted = /^"(.*)"$/.exec(text);
  if (quoted) return quoted[1]!;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^(yes|no)$/i.test(text)) return text.toLowerCase() === 'yes' ? 'Yes' : 'No';
  throw new RequestError(`Formula value ${JSON.stringify(text)} is not understood`);
}

function compare(a: string | number | undefined, op: string, b: string | number): boolean {
  if (a === undefined) return false;
  const [x, y] = typeof b === 'number' ? [Number(a), b] : [String(a).toLowerCase(), String(b).toLowerCase()];
  switch (op) {
    case '=':
      return x === y;
    case '<>':
      return x !== y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '<':
      return x < y;
    default:
      return x <= y;
  }
}

export function compileFormula(formula: string): (lookup: Lookup) => boolean {
  const alternatives = formula.split(/\s+OR\s+/i).map((alt) =>
    alt.split(/\s+AND\s+/i).map((term) => {
      const m = COMPARISON.exec(term.trim());
      if (!m) throw new RequestError(`Formula term ${JSON.stringify(term.trim())} is not understood`);
      const value = literal(m[3]!);
      return (lookup: Lookup) => compare(lookup(m[1]!.toLowerCase()), m[2]!, value);
    }),
  );
  return (lookup) => alternatives.some((terms) => terms.every((t) => t(lookup)));
}
