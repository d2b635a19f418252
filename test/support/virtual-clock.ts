/**
 * Virtual time shared by several actors that wait through an injected `wait` (a quota's retry): time
 * moves only when every live actor is waiting, straight to the earliest wake-up, in the order the waits
 * were asked for when they fall due together. The actors may do real I/O in between (Redis, HTTP over
 * loopback): none of it takes virtual time. No timers, no sleeps; a minute of quota passes in
 * milliseconds.
 */
export function virtualClock(startMs: number) {
  let now = startMs;
  let live = 0;
  const timers: Array<{ at: number; seq: number; done: () => void }> = [];
  let seq = 0;
  const advance = () => {
    if (live === 0 || timers.length < live) return;
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = timers.shift()!;
    now = Math.max(now, next.at);
    next.done();
  };
  return {
    now: (): number => now,
    /** The injectable wait: ends when virtual time reaches now + ms. */
    wait(ms: number): Promise<void> {
      return new Promise((resolve) => {
        timers.push({ at: now + ms, seq: seq++, done: resolve });
        advance();
      });
    },
    /** Runs an actor: time waits for it while it works, and stops counting it once it ends. */
    async actor<T>(fn: () => Promise<T>): Promise<T> {
      live++;
      try {
        return await fn();
      } finally {
        live--;
        advance();
      }
    },
  };
}
