import { readFile } from 'node:fs/promises';

/** Samples a process's peak RSS (VmHWM, kB) from /proc until it exits; Linux only. */
export function watchPeakRss(pid: number, everyMs = 200): { stop(): number; peek(): number } {
  let peakKb = 0;
  const timer = setInterval(async () => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const m = /VmHWM:\s+(\d+) kB/.exec(status);
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* exited */
    }
  }, everyMs);
  return {
    peek: () => peakKb,
    stop() {
      clearInterval(timer);
      return peakKb;
    },
  };
}
