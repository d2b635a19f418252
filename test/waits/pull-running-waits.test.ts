import { describe, expect, it } from 'vitest';
import { decidePullRunning } from '../../src/waits/pull-running-waits.js';

const NOW = Date.UTC(2026, 10, 27, 18, 0, 0);

describe('a pull that finds its stream already being pulled (decidePullRunning)', () => {
  it.each([
    [
      'it must read after the running pull, as a job that can be delayed',
      true,
      true,
      { kind: 'wait', untilMs: NOW + 1_000 },
    ],
    ['it must read after the running pull, but cannot be delayed', true, false, { kind: 'skip' }],
    ['any other pull, as a job that can be delayed', false, true, { kind: 'skip' }],
    ['any other pull that cannot be delayed', false, false, { kind: 'skip' }],
  ])('given %s, when it meets the running pull, then %j', (_, waitForRunning, canDefer, decision) => {
    expect(decidePullRunning(waitForRunning, canDefer, NOW)).toEqual(decision);
  });
});
