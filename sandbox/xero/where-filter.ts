import { parseMsDate } from './xero-date.js';

/**
 * Xero's `where` parameter: C#-like expressions over record fields, e.g.
 * `Type=="ACCREC" AND Status=="AUTHORISED"`, `Date>=DateTime(2025,01,01)`, `Contact.ContactID==Guid("…")`,
 * `Name.Contains("Tool")`. Supported: AND/OR/NOT (also && || !), parentheses, == != > >= < <=, string,
 * number, true/false/null literals, DateTime(y,m,d[,h,mi,s]), Guid("…"), and the string methods
 * Contains/StartsWith/EndsWith. `/Date(ms)/` fields compare as instants. A syntax error is a
 * QueryParseException (400), as Xero answers.
 */
export class WhereParseError extends Error {}

type Value = string | number | boolean | null;
export type WhereExpr =
  | { kind: 'and' | 'or'; left: WhereExpr; right: WhereExpr }
  | { kind: 'not'; expr: WhereExpr }
  | { kind: 'cmp'; field: string; op: string; value: Value; date: boolean }
  | { kind: 'call'; field: string; method: 'Contains' | 'StartsWith' | 'EndsWith'; arg: string };

type Token = { t: 'id' | 'str' | 'num' | 'op' | '(' | ')' | ',' | '.'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        s += src[j];
        j++;
      }
      if (j >= src.length) throw new WhereParseError(`unterminated string at ${i}`);
      out.push({ t: 'str', v: s });
      i = j + 1;
    } else if (/[0-9-]/.test(c) && /[0-9]/.test(src[i + (c === '-' ? 1 : 0)] ?? '')) {
      const m = /^-?\d+(\.\d+)?/.exec(src.slice(i))!;
      out.push({ t: 'num', v: m[0] });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0] });
      i += m[0].length;
    } else {
      const two = src.slice(i, i + 2);
      if (['==', '!=', '>=', '<=', '&&', '||'].includes(two)) {
        out.push({ t: 'op', v: two });
        i += 2;
      } else if (c === '>' || c === '<' || c === '!') {
        out.push({ t: 'op', v: c });
        i++;
      } else if (c === '(' || c === ')' || c === ',' || c === '.') {
        out.push({ t: c, v: c });
        i++;
      } else {
        throw new WhereParseError(`unexpected character '${c}' at ${i}`);
      }
    }
  }
  return out;
}

export function parseWhere(src: string): WhereExpr {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => {
    const tok = tokens[pos++];
    if (!tok) throw new WhereParseError('unexpected end of expression');
    return tok;
  };
  const expect = (t: Token['t']) => {
    const tok = next();
    if (tok.t !== t) throw new WhereParseError(`expected '${t}' but found '${tok.v}'`);
    return tok;
  };
  const isWord = (w: string) => peek()?.t === 'id' && peek()!.v.toUpperCase() === w;

  const orExpr = (): WhereExpr => {
    let left = andExpr();
    while (isWord('OR') || (peek()?.t === 'op' && peek()!.v === '||')) {
      next();
      left = { kind: 'or', left, right: andExpr() };
    }
    return left;
  };
  const andExpr = (): WhereExpr => {
    let left = unary();
    while (isWord('AND') || (peek()?.t === 'op' && peek()!.v === '&&')) {
      next();
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  };
  const unary = (): WhereExpr => {
    if (isWord('NOT') || (peek()?.t === 'op' && peek()!.v === '!')) {
      next();
      return { kind: 'not', expr: unary() };
    }
    if (peek()?.t === '(') {
      next();
      const e = orExpr();
      expect(')');
      return e;
    }
    return comparison();
  };
  const comparison = (): WhereExpr => {
    const parts = [expect('id').v];
    while (peek()?.t === '.') {
      next();
      parts.push(expect('id').v);
    }
    const last = parts[parts.length - 1]!;
    if (['Contains', 'StartsWith', 'EndsWith'].includes(last) && peek()?.t === '(') {
      next();
      const arg = expect('str').v;
      expect(')');
      return { kind: 'call', field: parts.slice(0, -1).join('.'), method: last as 'Contains', arg };
    }
    const op = next();
    if (op.t !== 'op' || !['==', '!=', '>=', '<=', '>', '<'].includes(op.v))
      throw new WhereParseError(`expected a comparison after ${parts.join('.')}`);
    const { value, date } = literal();
    return { kind: 'cmp', field: parts.join('.'), op: op.v, value, date };
  };
  const literal = (): { value: Value; date: boolean } => {
    const tok = next();
    if (tok.t === 'str') return { value: tok.v, date: false };
    if (tok.t === 'num') return { value: Number(tok.v), date: false };
    if (tok.t === 'id') {
      const w = tok.v;
      if (w === 'true' || w === 'false') return { value: w === 'true', date: false };
      if (w === 'null') return { value: null, date: false };
      if (w === 'Guid') {
        expect('(');
        const g = expect('str').v.toLowerCase();
        expect(')');
        return { value: g, date: false };
      }
      if (w === 'DateTime') {
        expect('(');
        const nums = [Number(expect('num').v)];
        while (peek()?.t === ',') {
          next();
          nums.push(Number(expect('num').v));
        }
        expect(')');
        if (nums.length !== 3 && nums.length !== 6)
          throw new WhereParseError('DateTime takes (y,m,d) or (y,m,d,h,mi,s)');
        const [y, mo, d, h = 0, mi = 0, s = 0] = nums as [number, number, number, number?, number?, number?];
        const ms = Date.UTC(y, mo - 1, d, h, mi, s);
        if (new Date(ms).getUTCDate() !== d) throw new WhereParseError('DateTime is not a real date');
        return { value: ms, date: true };
      }
    }
    throw new WhereParseError(`unexpected '${tok.v}'`);
  };

  const expr = orExpr();
  if (pos !== tokens.length) throw new WhereParseError(`unexpected '${tokens[pos]!.v}'`);
  return expr;
}

function fieldOf(record: unknown, path: string): unknown {
  let cur: unknown = record;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

export function evaluateWhere(expr: WhereExpr, record: unknown): boolean {
  switch (expr.kind) {
    case 'and':
      return evaluateWhere(expr.left, record) && evaluateWhere(expr.right, record);
    case 'or':
      return evaluateWhere(expr.left, record) || evaluateWhere(expr.right, record);
    case 'not':
      return !evaluateWhere(expr.expr, record);
    case 'call': {
      const v = fieldOf(record, expr.field);
      if (typeof v !== 'string') return false;
      const a = v.toLowerCase();
      const b = expr.arg.toLowerCase();
      return expr.method === 'Contains'
        ? a.includes(b)
        : expr.method === 'StartsWith'
          ? a.startsWith(b)
          : a.endsWith(b);
    }
    case 'cmp': {
      let left: unknown = fieldOf(record, expr.field);
      let right: Value = expr.value;
      if (expr.date) left = parseMsDate(left);
      else if (typeof left === 'string' && typeof right === 'string' && /^[0-9a-f-]{36}$/i.test(right)) {
        left = left.toLowerCase();
        right = right.toLowerCase();
      }
      if (left === undefined) left = null;
      switch (expr.op) {
        case '==':
          return left === right;
        case '!=':
          return left !== right;
        default: {
          if (left === null || right === null || typeof left !== typeof right) return false;
          const l = left as number | string;
          const r = right as number | string;
          return expr.op === '>' ? l > r : expr.op === '>=' ? l >= r : expr.op === '<' ? l < r : l <= r;
        }
      }
    }
  }
}

/** Whether the expression mentions a field (e.g. Status: then DELETED rows are not hidden by default). */
export function mentionsField(expr: WhereExpr, field: string): boolean {
  switch (expr.kind) {
    case 'and':
    case 'or':
      return mentionsField(expr.left, field) || mentionsField(expr.right, field);
    case 'not':
      return mentionsField(expr.expr, field);
    default:
      return expr.field === field;
  }
}
