import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OLD_SPACE_MB, DEFAULT_SEMI_SPACE_MB, heapSizing, HeapSizeError } from '../../cli/heap-sizing.js';
import { expectOneLineError, runCli } from '../support/cli.js';
import { CLI, REPO_ROOT } from '../support/repo-paths.js';

const DEFAULT_FLAGS = [
  `--max-old-space-size=${DEFAULT_OLD_SPACE_MB}`,
  `--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`,
];

describe('heapSizing', () => {
  it('given no sizing on the command line or in NODE_OPTIONS, then both caps are added with MALLOC_ARENA_MAX=2', () => {
    expect(heapSizing(['worker', '--config', 'x.yaml'], [], {})).toEqual({
      flags: DEFAULT_FLAGS,
      env: { MALLOC_ARENA_MAX: '2' },
    });
  });

  it("given an operator's old-space size (node flag or NODE_OPTIONS, either spelling), then only the semi-space cap is added", () => {
    const semi = [`--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`];
    expect(heapSizing(['backfill'], ['--max-old-space-size=1024'], {}).flags).toEqual(semi);
    expect(
      heapSizing(['backfill'], [], { NODE_OPTIONS: '--enable-source-maps --max_old_space_size=1024' }).flags,
    ).toEqual(semi);
  });

  it('given both caps already set, then nothing is added, not even the malloc setting', () => {
    expect(heapSizing(['worker'], [], { NODE_OPTIONS: '--max-old-space-size=300 --max-semi-space-size=8' })).toEqual({
      flags: [],
      env: {},
    });
  });

  it('given ERP_SYNC_HEAP_MB, then it is the old-space cap; 0 leaves V8 its own sizing', () => {
    expect(heapSizing(['reconcile'], [], { ERP_SYNC_HEAP_MB: '512' }).flags).toEqual([
      '--max-old-space-size=512',
      DEFAULT_FLAGS[1],
    ]);
    expect(heapSizing(['reconcile'], [], { ERP_SYNC_HEAP_MB: '0' })).toEqual({ flags: [], env: {} });
  });

  it('given ERP_SYNC_HEAP_MB that is not a whole number, or too small for the program, then it is refused', () => {
    expect(() => heapSizing(['worker'], [], { ERP_SYNC_HEAP_MB: '1g' })).toThrow(HeapSizeError);
    expect(() => heapSizing(['worker'], [], { ERP_SYNC_HEAP_MB: '32' })).toThrow(/below 64 MiB/);
  });

  it('given MALLOC_ARENA_MAX already set, then it is left as it is', () => {
    expect(heapSizing(['worker'], [], { MALLOC_ARENA_MAX: '4' }).env).toEqual({});
  });

  it('given the demo or the sandbox (emulators and their data in-process), then V8 keeps its own sizing', () => {
    expect(heapSizing(['demo', '--records', '100000'], [], {}).flags).toEqual([]);
    expect(heapSizing(['sandbox', 'xero'], [], {}).flags).toEqual([]);
  });
});

describe('erp-sync started without heap flags', () => {
  let probe = '';
  beforeAll(async () => {
    // Loaded before the CLI in every process image (NODE_OPTIONS survives the re-exec): reports what V8 runs with.
    probe = join(await mkdtemp(join(tmpdir(), 'erp-sync-heap-')), 'probe.mjs');
    await writeFile(
      probe,
      "import v8 from 'node:v8';\n" +
        "process.on('exit', () => process.stderr.write(`probe ${JSON.stringify({ pid: process.pid, execArgv: process.execArgv, limitMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20, arena: process.env.MALLOC_ARENA_MAX ?? null })}\\n`));\n",
    );
  });

  const probed = (err: string) => {
    const lines = err.split('\n').filter((l) => l.startsWith('probe '));
    return lines.map(
      (l) =>
        JSON.parse(l.slice('probe '.length)) as {
          pid: number;
          execArgv: string[];
          limitMb: number;
          arena: string | null;
        },
    );
  };

  it('when it runs a command, then the same process (same pid) runs it with the caps in effect', async () => {
    const child = spawn(process.execPath, [CLI, 'status', '--help'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import=${probe}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err).toBe(0);
    expect(out).toContain('Usage: erp-sync status');
    const [run, ...more] = probed(err);
    expect(more).toEqual([]);
    expect(run!.pid).toBe(child.pid);
    expect(run!.execArgv).toEqual(expect.arrayContaining(DEFAULT_FLAGS));
    expect(run!.arena).toBe('2');
    // The limit V8 reports is the old space plus the young generation: far below its default of GiBs.
    expect(run!.limitMb).toBeGreaterThanOrEqual(DEFAULT_OLD_SPACE_MB);
    expect(run!.limitMb).toBeLessThan(DEFAULT_OLD_SPACE_MB + 64);
  });

  it('given ERP_SYNC_HEAP_MB=0, then it runs as started, with V8 sizing the heap itself', async () => {
    const r = await runCli(['status', '--help'], { env: { NODE_OPTIONS: `--import=${probe}`, ERP_SYNC_HEAP_MB: '0' } });
    expect(r.code, r.err).toBe(0);
    const [run] = probed(r.err);
    expect(run!.execArgv).toEqual([]);
    expect(run!.arena).toBeNull();
  });

  it('given a malformed ERP_SYNC_HEAP_MB, then it exits 2 with one line naming the variable', async () => {
    const r = await runCli(['status'], { env: { ERP_SYNC_HEAP_MB: '256m' } });
    expect(expectOneLineError(r)).toBe(
      'erp-sync: ERP_SYNC_HEAP_MB must be a whole number of MiB (0 = V8\'s default sizing), got "256m"',
    );
  });
});
