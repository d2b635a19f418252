import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './repo-paths.js';

/**
 * A CI log is read from its end. `npm test`'s reporters (vitest.config.ts) end a failing run with the name of
 * every failure, however long the errors printed above them: here a run of test/fixtures/failing-run, whose
 * one file has a test that fails with a 60-line diff and a suite whose beforeAll throws.
 */
describe("given a vitest run with npm test's reporters and failures with long errors", () => {
  it('when it ends, then its last lines name each failed test and the suite whose hook failed', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const vitest = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');
    const config = 'test/fixtures/failing-run/vitest.config.ts';
    const run = await promisify(execFile)(process.execPath, [vitest, 'run', '--config', config], {
      cwd: REPO_ROOT,
      env,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );

    expect(run.code).toBe(1);
    const file = 'test/fixtures/failing-run/fails.fixture.ts';
    expect(run.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      ' Failed (2):',
      `   ${file} > given a suite whose test fails > when compared, then it differs`,
      `   ${file} > given a suite whose beforeAll fails (the harness did not start)`,
    ]);
  });
});
