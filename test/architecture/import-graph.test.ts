import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Who may import whom (docs/architecture.md): the emulators are the other side of the wire, so the
 * product never loads them and they share nothing with the product but the billing interface's schemas;
 * a connector depends on the product's contracts only, never on jobs, the CLI, the sandbox or another
 * connector. The operations a person triggers (operations/) use src/, jobs/ and connectors/ and are used
 * by the CLI (and an HTTP API), never by the worker's own code. The CLI may import anything, the sandbox
 * included.
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const FOLDERS = ['src', 'jobs', 'connectors', 'operations', 'api', 'console', 'app', 'cli', 'sandbox'];

interface Edge {
  from: string;
  to: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file (static, re-export and dynamic `import()`), as a repository path. */
function importsOf(file: string): Edge[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({
      from: file,
      to: relative(ROOT, join(ROOT, dirname(file), spec))
        .split(sep)
        .join('/'),
    }));
}

const edges = FOLDERS.flatMap(tsFiles).flatMap(importsOf);
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const product = (path: string) =>
  ['src', 'jobs', 'connectors', 'operations', 'api', 'console', 'app', 'cli'].some((f) => under(path, f));
const show = (list: Edge[]) => list.map((e) => `${e.from} → ${e.to}`);

describe('the import graph', () => {
  it('is read from the source (sanity: the files and imports are found)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((e) => under(e.from, 'sandbox') && under(e.to, 'sandbox/kit'))).toBe(true);
    expect(edges.some((e) => e.from === 'cli/commands/sandbox.ts' && under(e.to, 'sandbox'))).toBe(true);
  });

  it('given src/, jobs/, connectors/, operations/, api/ and app/, then none imports sandbox/ (the worker never loads an emulator)', () => {
    const bad = edges.filter(
      (e) =>
        ['src', 'jobs', 'connectors', 'operations', 'api', 'app'].some((f) => under(e.from, f)) &&
        under(e.to, 'sandbox'),
    );
    expect(show(bad)).toEqual([]);
  });

  it('given sandbox/, then from the product it imports only the billing interface schemas (src/billing/schemas/)', () => {
    const bad = edges.filter((e) => under(e.from, 'sandbox') && product(e.to) && !under(e.to, 'src/billing/schemas'));
    expect(show(bad)).toEqual([]);
  });

  it('given a connector, then it imports only src/ and its own folder (not jobs/, cli/, sandbox/ or another connector)', () => {
    const bad = edges.filter((e) => {
      const own = /^connectors\/([^/]+)\//.exec(e.from)?.[1];
      if (own === undefined) return false;
      return !under(e.to, 'src') && !under(e.to, `connectors/${own}`);
    });
    expect(show(bad)).toEqual([]);
  });

  it('given operations/, then it imports only src/, jobs/, connectors/ and its own folder (not app/, cli/ or sandbox/)', () => {
    const bad = edges.filter(
      (e) => under(e.from, 'operations') && !['src', 'jobs', 'connectors', 'operations'].some((f) => under(e.to, f)),
    );
    expect(show(bad)).toEqual([]);
    expect(edges.some((e) => under(e.from, 'cli') && under(e.to, 'operations'))).toBe(true);
  });

  it('given src/, jobs/ and connectors/, then none imports app/, operations/ or cli/ (processors depend neither on the wiring nor on what a person triggers)', () => {
    const bad = edges.filter(
      (e) =>
        ['src', 'jobs', 'connectors'].some((f) => under(e.from, f)) &&
        ['app', 'operations', 'cli'].some((f) => under(e.to, f)),
    );
    expect(show(bad)).toEqual([]);
  });

  it('given app/, then it imports only src/, jobs/, connectors/, operations/, api/, console/ and its own folder (the composition root is not the CLI)', () => {
    const bad = edges.filter(
      (e) =>
        under(e.from, 'app') &&
        !['src', 'jobs', 'connectors', 'operations', 'api', 'console', 'app'].some((f) => under(e.to, f)),
    );
    expect(show(bad)).toEqual([]);
    expect(edges.some((e) => under(e.from, 'cli') && under(e.to, 'app'))).toBe(true);
  });

  it('given api/ (the HTTP front end), then it imports only src/, jobs/, connectors/, operations/ and its own folder', () => {
    const bad = edges.filter(
      (e) => under(e.from, 'api') && !['src', 'jobs', 'connectors', 'operations', 'api'].some((f) => under(e.to, f)),
    );
    expect(show(bad)).toEqual([]);
    expect(edges.some((e) => under(e.from, 'api') && under(e.to, 'operations'))).toBe(true);
  });

  it('given api/, then only app/, console/ and cli/ import it (the worker mounts it; no processor, store or operation depends on it)', () => {
    const bad = edges.filter(
      (e) => under(e.to, 'api') && !under(e.from, 'api') && !['app', 'console', 'cli'].some((f) => under(e.from, f)),
    );
    expect(show(bad)).toEqual([]);
    expect(edges.some((e) => under(e.from, 'app') && under(e.to, 'api'))).toBe(true);
  });

  it('given console/ (the web console), then it imports only src/, jobs/, api/ and its own folder, and only app/ and cli/ import it', () => {
    const out = edges.filter(
      (e) => under(e.from, 'console') && !['src', 'jobs', 'api', 'console'].some((f) => under(e.to, f)),
    );
    const into = edges.filter(
      (e) => under(e.to, 'console') && !under(e.from, 'console') && !['app', 'cli'].some((f) => under(e.from, f)),
    );
    expect(show([...out, ...into])).toEqual([]);
    expect(edges.some((e) => under(e.from, 'app') && under(e.to, 'console'))).toBe(true);
  });
});
