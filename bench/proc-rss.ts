import { readFile } from 'node:fs/promises';

/** Samples a process's peak RSS (VmHWM, kB) and its RSS now (VmRSS, kB) from /proc until it exits; Linux only. */
export function watchPeakRss(pid: number, everyMs = 200): { stop(): number; peek(): number; current(): number } {
  let peakKb = 0;
  let currentKb = 0;
  const timer = setInterval(async () => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const m = /VmHWM:\s+(\d+) kB/.exec(status);
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
      const now = /VmRSS:\s+(\d+) kB/.exec(status);
      if (now) currentKb = Number(now[1]);
    } catch {
      /* exited */
    }
  }, everyMs);
  return {
    peek: () => peakKb,
    current: () => currentKb,
    stop() {
      clearInterval(timer);
      return peakKb;
    },
  };
}
