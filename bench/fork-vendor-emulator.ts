import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { watchPeakRss } from './proc-rss.js';

export interface VendorEmulator {
  /** The connection entry for the config (demo settings: the emulator's URLs and sandbox credentials). */
  connection: Record<string, unknown>;
  from: string;
  to: string;
  /** Invoices billing takes from this source (drafts excluded). */
  sourceInvoices: number;
  generatedSeconds: number;
  /** Peak RSS of the emulator process so far, MiB. */
  peakRssMb(): number;
  stop(): void;
}

/**
 * An ERP emulator in its own process with a 12 GiB heap: a million generated Zoho invoices (about 3.7 GiB,
 * extrapolated from 741 MiB at 200,000) and its request journal (200,000 entries, about 2 GiB) must not
 * be what limits a benchmark, nor share the measured process's memory or core.
 */
export async function forkVendorEmulator(vendor: string, invoices: number): Promise<VendorEmulator> {
  const child = fork(
    fileURLToPath(new URL('./vendor-emulator-process.js', import.meta.url)),
    [vendor, String(invoices)],
    {
      execArgv: ['--max-old-space-size=12288'],
    },
  );
  const rss = watchPeakRss(child.pid!, 1000);
  const info = await new Promise<Omit<VendorEmulator, 'stop' | 'peakRssMb'>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`the ${vendor} emulator exited ${code} before it was ready`)));
  });
  let peakKb = 0;
  return {
    ...info,
    peakRssMb: () => (peakKb = Math.max(peakKb, rss.peek())) / 1024,
    stop: () => {
      peakKb = Math.max(peakKb, rss.stop());
      child.send('stop');
    },
  };
}
