import { readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importCycles, importEdges } from './import-graph.js';

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

const edges = importEdges(ROOT, FOLDERS);
/** Import cycles left (each a set of files that import one another, types included); lower it as they go. */
const CYCLE_BUDGET = 0;
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const product = (path: string) =>
  ['src', 'jobs', 'connectors', 'operations', 'api', 'console', 'app', 'cli'].some((f) => under(path, f));
const show = (list: ImportEdge[]) => list.map((e) => `${e.from} → ${e.to}`);

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

  it('counts cycles as strongly connected files, type-only and inline `import()` edges included (sanity)', () => {
    const graph = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'a.ts' },
      { from: 'c.ts', to: 'd.ts' },
      { from: 'd.ts', to: 'd.ts' },
      { from: 'e.ts', to: 'a.ts' },
    ];
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    // A type-only import (`import type { PullRun } from './types.js'`) is an edge.
    expect(edges).toContainEqual({ from: 'jobs/pull/pull-stream.ts', to: 'jobs/pull/types.ts' });
  });

  it(`given the product and the sandbox, then at most ${CYCLE_BUDGET} import cycles remain (type imports count: a circle of types is a circle in the design)`, () => {
    const cycles = importCycles(edges).map((c) => c.join(' ↔ '));
    expect(cycles.length, cycles.join('\n')).toBeLessThanOrEqual(CYCLE_BUDGET);
  });

  it('given jobs/, then its root holds only the catalog, the runtime contract and one folder per job (+ admission/)', () => {
    const root = readdirSync(join(ROOT, 'jobs'), { withFileTypes: true });
    const files = root.filter((e) => e.isFile()).map((e) => e.name);
    expect(files.sort()).toEqual(['catalog.ts', 'define-job.ts', 'runtime.ts']);
    const folders = root.filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.sort()).toEqual(['admission', 'backfill', 'pull', 'reconcile', 'sweep', 'upsert']);
  });

  it('given a job folder, then its types.ts imports no processor and not the job wrapper (the steps import it instead of their processor)', () => {
    const bad = edges.filter(
      (e) => /^jobs\/[^/]+\/types\.ts$/.test(e.from) && (/-processor\.ts$/.test(e.to) || e.to === 'jobs/define-job.ts'),
    );
    expect(show(bad)).toEqual([]);
  });
});
