import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs` naming `what` and the last value. */
export async function until<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`,
      );
    await sleep(intervalMs);
  }
}
