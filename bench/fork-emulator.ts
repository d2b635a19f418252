import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The billing emulator in a child process (its own core); `stop()` ends it. */
export async function forkBillingEmulator(
  key: string,
  faults: object = {},
  seedInvoices = 0,
  spreadDays = 1,
): Promise<{ url: string; stop(): void }> {
  const child = fork(
    fileURLToPath(new URL('./emulator-process.js', import.meta.url)),
    [key, JSON.stringify(faults), String(seedInvoices), String(spreadDays)],
    {
      execArgv: ['--max-old-space-size=8192'],
    },
  );
  const { url } = await new Promise<{ url: string }>((resolve) =>
    child.once('message', (m) => resolve(m as { url: string })),
  );
  return { url, stop: () => child.send('stop') };
}

export async function journalStatuses(url: string, path: string): Promise<Record<number, number>> {
  const res = (await (await fetch(`${url}/__admin/journal?path=${encodeURIComponent(path)}`)).json()) as {
    entries: Array<{ status: number }>;
  };
  const out: Record<number, number> = {};
  for (const e of res.entries) out[e.status] = (out[e.status] ?? 0) + 1;
  return out;
}
