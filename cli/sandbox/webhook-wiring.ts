import { createServer } from 'node:net';
import type { ConnectionWebhooks } from '../../sandbox/profiles.js';
import type { Running } from './start-emulator.js';

/** Where the worker's webhook listener will be, and the secret each sandbox signs with. */
export interface WebhookWiring {
  /** Where the worker's listener binds (the printed config's `webhooks.host`). */
  host: string;
  port: number;
  /** The host the emulators post to: the listener's, or another name for it (a compose service). */
  target: string;
  /** The safety-net schedule the printed config gives connections whose webhooks are healthy. */
  withWebhooksEverySeconds: number;
  secretOf(system: string): string;
}

/** Xero checks intent to receive again this often until the worker (started later) answers it. */
export const INTENT_RETRY_MS = 2_000;

/** The worker's webhooks port: the one asked for, the one after the ERPs' ports, or (with --port 0) a free one. */
export async function pickWebhooksPort(
  asked: number | undefined,
  next: number | undefined,
  host: string,
): Promise<number> {
  if (asked !== undefined) return asked;
  if (next !== undefined) return next;
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The host the emulators post to: the worker listens where the sandboxes do (loopback for a wildcard). */
export function webhookHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/** Sandbox values, printed with the config: never real secrets. */
export function sandboxWebhookWiring(host: string, port: number, seed: number, target?: string): WebhookWiring {
  return {
    host: webhookHost(host),
    port,
    target: target ?? webhookHost(host),
    withWebhooksEverySeconds: 3600,
    // At least 32 characters, as the config asks of every webhook secret.
    secretOf: (system) => `sandbox-${system}-webhooks-${seed}-not-a-real-secret`,
  };
}

/** The worker's listener as the emulators reach it. */
export function webhookUrl(w: WebhookWiring): string {
  return `http://${w.target.includes(':') ? `[${w.target}]` : w.target}:${w.port}`;
}

/** A connection's `webhooks` entries for the printed config. */
export function connectionWebhooks(w: WebhookWiring, system: string): ConnectionWebhooks {
  return { secret: w.secretOf(system), withWebhooksEverySeconds: w.withWebhooksEverySeconds };
}

/**
 * Points every ERP emulator's webhook sender (of the vendors that send webhooks) at the worker's listener (`POST /__admin/webhooks`). Xero's
 * intent to receive fails while no worker listens; it is tried again every INTENT_RETRY_MS until one does.
 */
export async function wireWebhooks(erps: ReadonlyArray<Running & { system: string }>, w: WebhookWiring): Promise<void> {
  for (const erp of erps.filter((e) => e.sendsWebhooks !== false)) {
    const res = await fetch(`${erp.url}/__admin/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: webhookUrl(w),
        secret: w.secretOf(erp.system),
        intentRetryMs: INTENT_RETRY_MS,
      }),
    });
    if (!res.ok) throw new Error(`the ${erp.system} emulator refused its webhook target: ${await res.text()}`);
  }
}
