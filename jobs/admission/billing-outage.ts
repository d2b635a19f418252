import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { BillingClient } from '../../src/billing/client.js';
import type { AppConfig } from '../../src/config.js';
import { TransientError } from '../../src/errors/index.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { Outages } from '../../src/pipeline/outages.js';
import type { RecordLock } from '../../src/pipeline/record-lock.js';

export interface BillingOutageHelpers {
  logger: Logger;
  metrics: Pick<Metrics, 'billingUp' | 'billingDownSince'>;
  config: { billing: Pick<AppConfig['billing'], 'outage'> };
  outages: Pick<Outages, 'markDown' | 'markUp' | 'get'>;
  locks: Pick<RecordLock, 'tryAcquire'>;
  billing: Pick<BillingClient, 'listInvoices'>;
  queues: { upsert: Pick<Queue, 'rateLimit' | 'removeRateLimitKey'> };
}

export const BILLING = 'billing';

/** How long one pause of the upsert queue lasts: renewed by the probe every `probeEverySeconds` while billing is down. */
function pauseMs(h: Pick<BillingOutageHelpers, 'config'>): number {
  return h.config.billing.outage.probeEverySeconds * 2_000;
}

/**
 * Billing outages wait instead of failing. Each upsert process counts its consecutive transient billing
 * failures (5xx, timeouts, refused connections that outlived the call's own retries); at
 * `billing.outage.failuresToPause` it marks billing down for every process (Redis) and pauses the upsert
 * queue (BullMQ's queue rate limit, the same pause a 429 uses). While billing is marked down, a job that
 * meets a transient failure goes back to wait without using an attempt (`wait-for-billing` in
 * src/waits/billing-waits.ts); a record is quarantined for what it is, never because billing was away.
 * Any success resets the count.
 */
export function billingBreaker(h: BillingOutageHelpers) {
  let consecutive = 0;
  return {
    succeeded(): void {
      consecutive = 0;
    },
    /** After a billing failure: true when billing is down (the queue is paused; the job should wait, not fail). */
    async failed(err: unknown): Promise<boolean> {
      if (!(err instanceof TransientError)) return false;
      consecutive++;
      const outage =
        consecutive >= h.config.billing.outage.failuresToPause
          ? await h.outages.markDown(BILLING, err.message)
          : await h.outages.get(BILLING);
      if (!outage) return false;
      await h.queues.upsert.rateLimit(pauseMs(h));
      return true;
    },
  };
}
export type BillingBreaker = ReturnType<typeof billingBreaker>;

/**
 * While billing is marked down, one process at a time (a lock that expires with the interval) asks
 * billing for one invoice every `probeEverySeconds`: still failing → the queue's pause is renewed; any
 * answer → billing is marked up and the pause lifted. Runs in every process with the upsert role.
 */
export function startBillingProbe(h: BillingOutageHelpers): { stop(): void; probe(): Promise<void> } {
  const owner = randomUUID();
  const everyMs = h.config.billing.outage.probeEverySeconds * 1000;
  const probe = async (): Promise<void> => {
    const outage = await h.outages.get(BILLING);
    h.metrics.billingUp.set(outage ? 0 : 1);
    h.metrics.billingDownSince.set(outage ? outage.since / 1000 : 0);
    if (!outage) return;
    if (!(await h.locks.tryAcquire(BILLING, 'probe', 'outage', everyMs, owner))) return;
    try {
      // GET /external/invoices, one row: any answer but a transient failure means billing is reachable again.
      // One try: the probe's own interval is its retry.
      await h.billing.listInvoices({ pageSize: 1 }, { retries: 0 });
    } catch (err) {
      if (err instanceof TransientError) {
        await h.queues.upsert.rateLimit(pauseMs(h));
        h.logger.warn(
          { since: new Date(outage.since).toISOString(), error: err.message },
          'billing is still down; upserts stay paused',
        );
        return;
      }
    }
    const ended = await h.outages.markUp(BILLING);
    await h.queues.upsert.removeRateLimitKey();
    h.metrics.billingUp.set(1);
    h.metrics.billingDownSince.set(0);
    if (ended)
      h.logger.warn(
        { downSeconds: Math.round((Date.now() - ended.since) / 1000) },
        'billing answers again; upserts resume',
      );
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= probe()
      .catch((err: unknown) => h.logger.error({ err }, 'billing probe failed'))
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), probe };
}
