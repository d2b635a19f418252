import os from 'node:os';

/** Machine line for results: benchmarks are only comparable on the same machine and run. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Runs `total` tasks with at most `concurrency` in flight; returns elapsed ms. */
export async function runPool(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        await task(i);
      }
    }),
  );
  return performance.now() - started;
}

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** `[sizes…] [--vendor zoho-books|quickbooks|xero]` of the memory benches: the sizes (else `defaults`) and the vendor. */
export function sizesAndVendor(defaults: number[]): { sizes: number[]; vendor: string } {
  const argv = process.argv.slice(2);
  const vendorAt = argv.indexOf('--vendor');
  const sizes = argv
    .filter((_, i) => i !== vendorAt + 1 || vendorAt < 0)
    .map(Number)
    .filter((n) => n > 0);
  return { sizes: sizes.length ? sizes : defaults, vendor: vendorAt >= 0 ? argv[vendorAt + 1]! : 'zoho-books' };
}
