import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One relative import: `from` imports `to`, both repository paths of `.ts` files. */
export interface ImportEdge {
  from: string;
  to: string;
}

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(root, path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The `.ts` file an import specifier names: `./x.js` is `./x.ts`, a folder is its `index.ts`. */
function resolved(root: string, path: string): string {
  const ts = path.replace(/\.js$/, '.ts');
  if (existsSync(join(root, ts))) return ts;
  if (existsSync(join(root, path)) && statSync(join(root, path)).isDirectory()) return `${path}/index.ts`;
  return path;
}

/**
 * Every relative import of the `.ts` files under the given folders, as repository paths: static imports,
 * re-exports, dynamic `import()` and inline `import('…')` types. Type-only imports count: a type edge is
 * still a dependency a reader follows, and a circle of types is a circle in the design.
 */
export function importEdges(root: string, folders: readonly string[]): ImportEdge[] {
  return folders
    .flatMap((dir) => tsFiles(root, dir))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => ({
          from: file,
          to: resolved(
            root,
            relative(root, join(root, dirname(file), spec))
              .split(sep)
              .join('/'),
          ),
        })),
    );
}

/**
 * The import cycles of a graph, one per strongly connected component of two or more files (or one file that
 * imports itself): every file of a cycle reaches every other through imports. Tarjan's algorithm; each cycle's
 * files sorted, the cycles sorted by their first file.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
