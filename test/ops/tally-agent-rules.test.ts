import { describe, expect, it } from 'vitest';
import { requireBinary } from './support/require-binary.js';
import { run } from './support/run-command.js';

const RULES = 'ops/prometheus/rules/tally-agent.rules.yml';
const TESTS = 'ops/prometheus/tests/tally-agent.rules.test.yml';

describe("the Tally agent's alert rule", () => {
  it('given the rule file, when promtool checks it and runs its unit tests, then both pass: a day-long silence fires, a night off does not', () => {
    const promtool = requireBinary('promtool', 'prometheus');
    const check = run(promtool, ['check', 'rules', RULES]);
    expect(check.status, check.output).toBe(0);
    expect(check.output).toMatch(/SUCCESS: 1 rules found/);
    const tests = run(promtool, ['test', 'rules', TESTS]);
    expect(tests.status, tests.output).toBe(0);
    expect(tests.output).toContain('SUCCESS');
  });
});
