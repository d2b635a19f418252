import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-paths.js';

type Check = [name: string, command: string, args: string[]];
type RunChecks = (checks: Check[], write: (s: string) => void) => Promise<boolean>;

/**
 * `npm test` starts with scripts/static-checks.mjs, which runs lint, typecheck and build side by side. A CI
 * log is read from its end, so whichever order the checks end in, a failed check's output and name come last.
 */
describe('given checks run side by side (scripts/static-checks.mjs)', () => {
  let runChecks: RunChecks;
  let dir: string;
  beforeAll(async () => {
    // A path held in a variable: the script is plain JavaScript with no declarations for tsc to read.
    const script = pathToFileURL(join(REPO_ROOT, 'scripts/static-checks.mjs')).href;
    ({ runChecks } = (await import(script)) as { runChecks: RunChecks });
    dir = await mkdtemp(join(tmpdir(), 'erp-sync-static-checks-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A check that prints `line` and fails, leaving its pid in `marker` first. */
  const failing = (name: string, line: string, marker: string): Check => [
    name,
    process.execPath,
    [
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, String(process.pid)); console.log(${JSON.stringify(line)}); process.exit(1)`,
    ],
  ];
  /** A check that passes once the process whose pid is in `marker` has ended (and been reaped): it ends after it. */
  const passingAfter = (name: string, marker: string): Check => [
    name,
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
       const gone = (pid) => { try { process.kill(pid, 0); return false; } catch { return true; } };
       const wait = () => {
         const pid = fs.existsSync(${JSON.stringify(marker)}) ? Number(fs.readFileSync(${JSON.stringify(marker)}, 'utf8')) : 0;
         if (pid && gone(pid)) { console.log('${name} done'); process.exit(0); }
         setTimeout(wait, 10);
       };
       wait();`,
    ],
  ];

  it('when a check fails before another passes, then the failed output and a line naming the failed check come last', async () => {
    const marker = join(dir, 'lint.pid');
    let out = '';
    const passed = await runChecks(
      [failing('lint', 'src/a.ts is not formatted', marker), passingAfter('typecheck', marker)],
      (s) => (out += s),
    );

    expect(passed).toBe(false);
    const lines = out.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('== static checks failed: lint');
    expect(lines.at(-2)).toBe('src/a.ts is not formatted');
    expect(lines.at(-3)).toMatch(/^== lint: failed \(exit 1\) in [\d.]+ s$/);
    expect(lines.slice(0, 2)).toEqual([expect.stringMatching(/^== typecheck: ok in /), 'typecheck done']);
  });

  it('when every check passes, then each is reported ok and no failure line is written', async () => {
    let out = '';
    const passed = await runChecks(
      [
        ['lint', process.execPath, ['-e', '']],
        ['build', process.execPath, ['-e', 'console.log("built")']],
      ],
      (s) => (out += s),
    );

    expect(passed).toBe(true);
    expect(out).toMatch(/^== lint: ok in /m);
    expect(out).toMatch(/^== build: ok in [\d.]+ s\nbuilt$/m);
    expect(out).not.toMatch(/failed/);
  });
});
