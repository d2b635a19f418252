/**
 * What a pull does when an incremental pull of its stream is already running, decided here alone
 * (jobs/pull/pull-processor.ts holds the stream's pull lock and acts on the answer). Two incremental pulls of
 * one stream at once would only duplicate work (and could roll the checkpoint back).
 *
 * | signal                                                             | decision                                          |
 * |--------------------------------------------------------------------|---------------------------------------------------|
 * | the pull must read after the running one (`waitForRunning`, a repair's or a "sync now" pull), and it runs as a job that can be delayed | wait: delayed ~1 s (reason `pull-running`), without using an attempt, and try again |
 * | any other pull                                                     | skip: return at once, nothing read                |
 */
export type PullRunningWait = { kind: 'wait'; untilMs: number } | { kind: 'skip' };

/** How long a pull that must follow the running one waits before it tries the stream's lock again. */
export const PULL_RUNNING_RETRY_MS = 1_000;

export function decidePullRunning(waitForRunning: boolean, canDefer: boolean, now: number): PullRunningWait {
  return waitForRunning && canDefer ? { kind: 'wait', untilMs: now + PULL_RUNNING_RETRY_MS } : { kind: 'skip' };
}
