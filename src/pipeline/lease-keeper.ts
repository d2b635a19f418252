import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';

import type { LeaseKind } from './lease-kind.js';

export { LEASE_KINDS, type LeaseKind } from './lease-kind.js';

/**
 * A lease in Redis that lasts `ttlMs` unless renewed. `renew` takes it again for its whole TTL and says
 * whether it is still held (false: it expired and another owner has it, or some of its keys are gone).
 * `owner` names the holder in reports (a job id, never a secret).
 */
export interface Lease {
  kind: LeaseKind;
  owner: string;
  ttlMs: number;
  renew(): Promise<boolean>;
}

/**
 * Renews every lease the process holds, on one timer, until each is untracked. The timer ticks every
 * third of the shortest TTL tracked (every lease is tried twice before it could expire, so one failed
 * renewal loses nothing), and stops while nothing is tracked; leases with longer TTLs are renewed on the
 * same ticks, earlier than they need (one cheap Redis call each). A renewal that fails (Redis away for a moment) or finds the
 * lease lost is reported, a warning with the lease's kind and owner and
 * `erpsync_lease_renewals_failed_total{kind}`, and tried again at the next tick: a lease whose process
 * dies stops being renewed and lasts at most its TTL.
 */
export class LeaseKeeper {
  private readonly leases = new Set<Lease>();
  private readonly renewing = new Map<Lease, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private tickMs = 0;

  constructor(
    private readonly report: { logger: Pick<Logger, 'warn'>; metrics?: Pick<Metrics, 'leaseRenewalsFailed'> },
  ) {}

  /** Keeps `lease` renewed until the returned function (or `untrack`) is called. */
  track(lease: Lease): () => void {
    this.leases.add(lease);
    this.retime();
    return () => this.untrack(lease);
  }

  untrack(lease: Lease): void {
    if (this.leases.delete(lease)) this.retime();
  }

  /** Renews every tracked lease now (the timer's tick); resolves when every renewal has answered. */
  async renewAll(): Promise<void> {
    await Promise.all([...this.leases].map((lease) => this.renewOne(lease)));
  }

  private renewOne(lease: Lease): Promise<void> {
    // A renewal still unanswered from the last tick is not sent twice: it is the one waited for.
    let pending = this.renewing.get(lease);
    if (!pending) {
      pending = this.renew(lease).finally(() => this.renewing.delete(lease));
      this.renewing.set(lease, pending);
    }
    return pending;
  }

  private async renew(lease: Lease): Promise<void> {
    try {
      const held = await lease.renew();
      if (!held && this.leases.has(lease)) this.failed(lease, 'the lease is no longer held by its owner');
    } catch (err) {
      if (this.leases.has(lease)) this.failed(lease, err instanceof Error ? err.message : String(err));
    }
  }

  private failed(lease: Lease, why: string): void {
    this.report.metrics?.leaseRenewalsFailed.inc({ kind: lease.kind });
    this.report.logger.warn(
      { lease: lease.kind, owner: lease.owner, why },
      'lease renewal failed; tried again at the next tick',
    );
  }

  /** One timer at a third of the shortest TTL tracked; none while nothing is tracked. */
  private retime(): void {
    const tickMs = this.leases.size
      ? Math.max(1, Math.floor(Math.min(...[...this.leases].map((l) => l.ttlMs)) / 3))
      : 0;
    if (tickMs === this.tickMs) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.tickMs = tickMs;
    if (!tickMs) return;
    this.timer = setInterval(() => void this.renewAll(), tickMs);
    this.timer.unref();
  }
}
