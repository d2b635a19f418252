/**
 * The subset of the QBO query language the sandbox understands
 * (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries):
 *
 *   SELECT * | count(*) | field[, field…] FROM Entity
 *   [WHERE cond [AND cond]…]           cond: field (= | < | > | <= | >=) value | field IN (v, …) | field LIKE 'a%'
 *   [ORDERBY | ORDER BY field [ASC|DESC][, …]] [STARTPOSITION n] [MAXRESULTS n]
 *
 * Values: 'strings' with `\'` and `\\` escapes, numbers, true/false. Keywords are case-insensitive;
 * entity names are case-sensitive (checked by the executor). `OR` is refused as QBO refuses it.
 * Errors carry QBO's codes: 4000 (QueryParserError) for syntax.
 */
export type Value = string | number | boolean;
export type Condition =
  | { field: string; op: '=' | '<' | '>' | '<=' | '>='; value: Value }
  | { field: string; op: 'IN'; values: Value[] }
  | { field: string; op: 'LIKE'; value: string };

export interface Query {
  select: { kind: 'all' } | { kind: 'count' } | { kind: 'fields'; fields: string[] };
  entity: string;
  where: Condition[];
  orderBy: Array<{ field: string; desc: boolean }>;
  startPosition?: number;
  maxResults?: number;
}

export class QueryError extends Error {
  constructor(
    readonly code: '4000' | '4001',
    message: string,
  ) {
    super(message);
  }
}

type Token = { kind: 'word' | 'string' | 'number' | 'op' | 'punct'; text: string; value?: Value };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let out = '';
      i++;
      for (;;) {
        if (i >= input.length)
          throw new QueryError('4000', 'QueryParserError: Encountered unterminated string literal');
        const ch = input[i]!;
        if (ch === '\\' && i + 1 < input.length) {
          out += input[i + 1]!;
          i += 2;
        } else if (ch === "'") {
          i++;
          break;
        } else {
          out += ch;
          i++;
        }
      }
      tokens.push({ kind: 'string', text: out, value: out });
    } else if (/[0-9-]/.test(c) && /^-?\d/.test(input.slice(i, i + 2))) {
      const m = /^-?\d+(\.\d+)?/.exec(input.slice(i))!;
      tokens.push({ kind: 'number', text: m[0], value: Number(m[0]) });
      i += m[0].length;
    } else if (/[<>=!]/.test(c)) {
      const m = /^(<=|>=|!=|<>|=|<|>)/.exec(input.slice(i))!;
      tokens.push({ kind: 'op', text: m[0] });
      i += m[0].length;
    } else if (/[(),*]/.test(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(input.slice(i))!;
      tokens.push({ kind: 'word', text: m[0] });
      i += m[0].length;
    } else {
      throw new QueryError('4000', `QueryParserError: Encountered "${c}" at column ${i + 1}`);
    }
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new QueryError('4000', 'QueryParserError: Encountered "<EOF>"');
    return t;
  }
  private isWord(word: string, t = this.peek()): boolean {
    return t?.kind === 'word' && t.text.toUpperCase() === word;
  }
  private expectWord(word: string): void {
    const t = this.next();
    if (!this.isWord(word, t))
      throw new QueryError('4000', `QueryParserError: Encountered "${t.text}", expected ${word}`);
  }
  private expectPunct(p: string): void {
    const t = this.next();
    if (t.kind !== 'punct' || t.text !== p)
      throw new QueryError('4000', `QueryParserError: Encountered "${t.text}", expected "${p}"`);
  }
  private field(): string {
    const t = this.next();
    if (t.kind !== 'word')
      throw new QueryError('4000', `QueryParserError: Encountered "${t.text}", expected a property`);
    return t.text;
  }
  private value(): Value {
    const t = this.next();
    if (t.kind === 'string' || t.kind === 'number') return t.value!;
    if (this.isWord('TRUE', t)) return true;
    if (this.isWord('FALSE', t)) return false;
    throw new QueryError('4000', `QueryParserError: Encountered "${t.text}", expected a value`);
  }
  private integer(label: string): number {
    const t = this.next();
    if (t.kind !== 'number' || !Number.isInteger(t.value))
      throw new QueryError('4000', `QueryParserError: ${label} expects an integer`);
    return t.value as number;
  }

  parse(): Query {
    this.expectWord('SELECT');
    let select: Query['select'];
    const first = this.peek();
    if (first?.kind === 'punct' && first.text === '*') {
      this.next();
      select = { kind: 'all' };
    } else if (this.isWord('COUNT')) {
      this.next();
      this.expectPunct('(');
      this.expectPunct('*');
      this.expectPunct(')');
      select = { kind: 'count' };
    } else {
      const fields = [this.field()];
      while (this.peek()?.kind === 'punct' && this.peek()?.text === ',') {
        this.next();
        fields.push(this.field());
      }
      select = { kind: 'fields', fields };
    }
    this.expectWord('FROM');
    const entity = this.field();
    const q: Query = { select, entity, where: [], orderBy: [] };
    while (this.peek()) {
      if (this.isWord('WHERE') && q.where.length === 0) {
        this.next();
        q.where.push(this.condition());
        for (;;) {
          if (this.isWord('AND')) {
            this.next();
            q.where.push(this.condition());
          } else if (this.isWord('OR')) {
            throw new QueryError('4000', 'QueryParserError: Encountered " "OR" "OR "" — OR is not supported');
          } else break;
        }
      } else if (this.isWord('ORDERBY') || this.isWord('ORDER')) {
        if (this.isWord('ORDER', this.next())) this.expectWord('BY');
        do {
          if (this.peek()?.text === ',') this.next();
          const field = this.field();
          let desc = false;
          if (this.isWord('ASC')) this.next();
          else if (this.isWord('DESC')) {
            this.next();
            desc = true;
          }
          q.orderBy.push({ field, desc });
        } while (this.peek()?.kind === 'punct' && this.peek()?.text === ',');
      } else if (this.isWord('STARTPOSITION')) {
        this.next();
        q.startPosition = this.integer('STARTPOSITION');
      } else if (this.isWord('MAXRESULTS')) {
        this.next();
        q.maxResults = this.integer('MAXRESULTS');
      } else {
        throw new QueryError('4000', `QueryParserError: Encountered "${this.peek()!.text}"`);
      }
    }
    return q;
  }

  private condition(): Condition {
    const field = this.field();
    const t = this.next();
    if (t.kind === 'op') {
      if (t.text === '!=' || t.text === '<>')
        throw new QueryError('4000', `QueryParserError: operator ${t.text} is not supported`);
      return { field, op: t.text as '=' | '<' | '>' | '<=' | '>=', value: this.value() };
    }
    if (this.isWord('IN', t)) {
      this.expectPunct('(');
      const values = [this.value()];
      while (this.peek()?.kind === 'punct' && this.peek()?.text === ',') {
        this.next();
        values.push(this.value());
      }
      this.expectPunct(')');
      return { field, op: 'IN', values };
    }
    if (this.isWord('LIKE', t)) {
      const v = this.value();
      if (typeof v !== 'string') throw new QueryError('4000', 'QueryParserError: LIKE expects a string');
      return { field, op: 'LIKE', value: v };
    }
    throw new QueryError('4000', `QueryParserError: Encountered "${t.text}", expected an operator`);
  }
}

export function parseQuery(statement: string): Query {
  return new Parser(tokenize(statement)).parse();
}
