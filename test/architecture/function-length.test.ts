import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionLengths } from './function-lengths.js';

/**
 * Short functions that name their decisions: a product function of 80 lines or more makes too many of them to
 * read at once. The job processors have none (they read as named steps); the rest of the product keeps at
 * most four, each named here with its length, so a new one is a choice made in review, not an accident.
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const PRODUCT = ['src', 'jobs', 'connectors', 'operations', 'app', 'api', 'console', 'cli'].filter((f) =>
  existsSync(join(ROOT, f)),
);
const LONG = 80;
const long = functionLengths(ROOT, PRODUCT).filter((f) => f.lines >= LONG);
const show = (list: typeof long) => list.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);

describe('the length of product functions', () => {
  it('is read from the source (sanity: functions of every size are found)', () => {
    expect(functionLengths(ROOT, ['jobs']).length).toBeGreaterThan(100);
  });

  it(`given jobs/, then no function is ${LONG} lines or more`, () => {
    expect(show(long.filter((f) => f.file.startsWith('jobs/')))).toEqual([]);
  });

  it(`given the whole product, then at most 4 functions are ${LONG} lines or more`, () => {
    expect(show(long).length, show(long).join('\n')).toBeLessThanOrEqual(4);
  });
});
