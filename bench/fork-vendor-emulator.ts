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
 * An ERP emulator in its own process with an 8 GiB heap: generating a million invoices must not be what
 * limits a benchmark, nor share the measured process's memory or core.
 */
export async function forkVendorEmulator(vendor: string, invoices: number): Promise<VendorEmulator> {
  const child = fork(fileURLToPath(new URL('./vendor-emulator-process.js', import.meta.url)), [vendor, String(invoices)], {
    execArgv: ['--max-old-space-size=8192'],
  });
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
