import { describe, expect, it } from 'vitest';
import { type CliRun, spawnCli } from './cli.js';
import { until } from './until.js';

/**
 * A command started without a time limit lives as long as the test that started it, and no longer: the test's
 * own timeout bounds a hang, and a command that is only slow to start on a loaded machine is not killed at
 * some fixed guard. `erp-sync sandbox` runs until it is stopped, so it is the command still running here.
 */
describe('given `erp-sync sandbox` started by a test without timeoutMs', () => {
  let exit: Promise<CliRun> | undefined;
  let ended = false;

  it('when the test ends while the command runs (it has printed its config)', async () => {
    const cli = spawnCli(['sandbox', '--port', '0', '--records', '5']);
    await cli.waitForOutput(/^connections:$/m);
    exit = cli.exit;
    void exit.then(() => (ended = true));
  });

  it('then it is killed with SIGKILL as that test ends, not at a guard of its own (30 s before)', async () => {
    // The kill was sent as the first test ended; its exit is reaped moments later, seconds before 30 s.
    await until('the sandbox process to have ended', () => ended, 10_000, 20);
    expect(await exit).toMatchObject({ code: null, signal: 'SIGKILL' });
  });
});
