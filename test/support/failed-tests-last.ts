import { relative } from 'node:path';
import type { Reporter, TestModule, TestSuite } from 'vitest/node';

/**
 * A reporter that runs after vitest's own (vitest.config.ts) and ends the output with one line per failure:
 * tier, file and full test name. Vitest's summary names a failed test above its error, diff and stack, which
 * can be a screen or more; a CI log read from its end then shows counts but not which test failed. A
 * failure outside any test (a beforeAll hook, an import) is named by its suite or file and first message.
 */
export default class FailedTestsLast implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const lines = testModules.flatMap(failuresIn);
    if (unhandledErrors.length) lines.push(`${unhandledErrors.length} unhandled error(s): see above`);
    if (!lines.length) return;
    process.stdout.write(`\n Failed (${lines.length}):\n${lines.map((l) => `   ${l}\n`).join('')}`);
  }
}

function failuresIn(module: TestModule): string[] {
  const where = [module.project.name, relative(process.cwd(), module.moduleId)].filter(Boolean).join(' ');
  const tests = [...module.children.allTests('failed')].map((t) => `${where} > ${t.fullName}`);
  const suites = [...module.children.allSuites()]
    .filter((s) => s.errors().length > 0)
    .map((s: TestSuite) => `${where} > ${s.fullName} (${firstLine(s.errors()[0]?.message)})`);
  const own = module.errors().map((e) => `${where} (${firstLine(e.message)})`);
  return [...tests, ...suites, ...own];
}

function firstLine(message: string | undefined): string {
  return (message ?? 'failed').split('\n')[0]!.slice(0, 200);
}
