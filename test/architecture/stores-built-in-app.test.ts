import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every Redis-backed store is built by the composition root (app/) and handed out by the runtime it
 * builds; the edges (api/, console/, cli/, operations/) and the rest of the product only use them.
 *
 * The rule, precisely:
 * - a **store class** is a class declared in src/ whose constructor takes an ioredis `Redis` (a parameter
 *   typed `Redis`);
 * - outside app/, no `new S(…)` of a store class S, except inside the body of a store class: a store may
 *   build its own parts from the client it was given (the audit log's refusals, reconcile's scratch sets);
 * - outside app/, no file reads the runtime's client to build something from it (`rt.redis`,
 *   `ctx.rt.redis`, `runtime.redis`).
 *
 * Checked: src/, jobs/, connectors/, operations/, api/, console/, cli/. Not checked: app/ (where stores
 * are built), test/ (each test builds the stores it needs on its own key prefix), bench/ (standalone
 * measuring programs that time a store alone) and sandbox/ (the emulators: the other side of the wire,
 * with no store of ours).
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const CHECKED = ['src', 'jobs', 'connectors', 'operations', 'api', 'console', 'cli'];

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const sourceOf = (file: string) =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

/** The classes in src/ whose constructor takes a `Redis`, as `path#Name` (two classes may share a name). */
function storeClasses(): Set<string> {
  const names = new Set<string>();
  for (const file of tsFiles('src')) {
    walk(sourceOf(file), (n) => {
      if (!ts.isClassDeclaration(n) || !n.name) return;
      const ctor = n.members.find(ts.isConstructorDeclaration);
      if (ctor?.parameters.some((p) => p.type?.getText() === 'Redis')) names.add(`${file}#${n.name.text}`);
    });
  }
  return names;
}

const STORES = storeClasses();

/** Where each name a file uses is declared: its own classes, and its relative imports resolved to a path. */
function declarations(file: string, sf: ts.SourceFile): (name: string) => string {
  const from = new Map<string, string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.text;
    if (!spec.startsWith('.')) continue;
    const path = normalize(join(dirname(file), spec))
      .replace(/\\/g, '/')
      .replace(/\.js$/, '.ts');
    const named = st.importClause?.namedBindings;
    if (named && ts.isNamedImports(named))
      for (const el of named.elements) from.set(el.name.text, `${path}#${(el.propertyName ?? el.name).text}`);
  }
  return (name) => from.get(name) ?? `${file}#${name}`;
}

/** The enclosing class, as `path#Name`, if any. */
function classAround(file: string, n: ts.Node): string | undefined {
  for (let p = n.parent; p; p = p.parent) if (ts.isClassDeclaration(p) && p.name) return `${file}#${p.name.text}`;
  return undefined;
}

interface Found {
  at: string;
  what: string;
}

function buildsOutsideApp(file: string, sf = sourceOf(file)): Found[] {
  const found: Found[] = [];
  const declared = declarations(file, sf);
  const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  walk(sf, (n) => {
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && STORES.has(declared(n.expression.text))) {
      const around = classAround(file, n);
      if (!around || !STORES.has(around)) found.push({ at: at(n), what: `new ${n.expression.text}(…)` });
    }
    if (ts.isPropertyAccessExpression(n) && n.name.text === 'redis') {
      const owner = n.expression.getText();
      if (/^(rt|ctx\.rt|runtime)$/.test(owner)) found.push({ at: at(n), what: `${owner}.redis` });
    }
  });
  return found;
}

describe('stores are built in app/', () => {
  it('given src/, then the store classes are found (sanity: the rule sees the stores it is about)', () => {
    for (const s of ['Ledger', 'AuditLog', 'ConsoleSessions', 'SignInLimiter', 'PendingAuthorizations', 'TokenStore'])
      expect(
        [...STORES].some((k) => k.endsWith(`#${s}`)),
        s,
      ).toBe(true);
    expect(STORES.size).toBeGreaterThan(30);
  });

  it('given a file that builds a store from the client, then the rule names it (sanity: the rule can fail)', () => {
    const sf = ts.createSourceFile(
      'src/pipeline/x.ts',
      [
        "import { AuditLog } from './audit-log.js';",
        "import { RefusalLog } from '../http/refusal-log.js';",
        'const a = new AuditLog(rt.redis, "p");',
        'const b = new RefusalLog(logger);',
      ].join('\n'),
      ts.ScriptTarget.Latest,
      true,
    );
    expect(buildsOutsideApp('src/pipeline/x.ts', sf).map((f) => `${f.at}: ${f.what}`)).toEqual([
      'src/pipeline/x.ts:3: new AuditLog(…)',
      'src/pipeline/x.ts:3: rt.redis',
    ]);
  });

  it('given every product file outside app/, when it is read, then none builds a store or reads the runtime’s Redis client', () => {
    const found = CHECKED.flatMap(tsFiles).flatMap((f) => buildsOutsideApp(f));
    expect(found.map((f) => `${f.at}: ${f.what}`)).toEqual([]);
  });
});
