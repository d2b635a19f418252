/**
 * A wait the test controls, injected where the code under test would sleep (a quota's retry, a token
 * refresh's poll): the test learns when the code waits, and decides when the wait ends — no timers.
 */
export function manualWait() {
  const pending: Array<{ ms: number; done: () => void }> = [];
  const watchers: Array<{ count: number; notify: () => void }> = [];
  let open = false;
  const wake = () => {
    for (const w of [...watchers]) {
      if (pending.length < w.count) continue;
      watchers.splice(watchers.indexOf(w), 1);
      w.notify();
    }
  };
  return {
    /** The injectable wait: ends when `release()` is called (at once, on the next tick, after it). */
    wait(ms: number, signal?: AbortSignal): Promise<void> {
      if (open) return new Promise((resolve) => setImmediate(resolve));
      return new Promise((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        pending.push({ ms, done: resolve });
        wake();
      });
    },
    /** Resolves once at least `count` waits are under way; with the ms the first one asked for. */
    waiting(count = 1): Promise<number> {
      return new Promise((resolve) => {
        watchers.push({ count, notify: () => resolve(pending[0]!.ms) });
        wake();
      });
    },
    /** Ends every wait under way; later waits end at once. */
    release(): void {
      open = true;
      for (const p of pending.splice(0)) p.done();
    },
  };
}
