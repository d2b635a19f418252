import type { Logger } from 'pino';
import type { RecordSettlement, UpsertState } from '../../src/pipeline/upsert-state.js';

/**
 * The outcomes of an upsert job's records, told to Redis in one round trip (UpsertState.settleMany):
 * once the job's records are done, or at once after a record whose write must never be repeated (an
 * attachment: billing adds one per call). Until then a record keeps its lock and in-flight entry, so a
 * run of the job after it died writes it again; the whole contract: docs/architecture.md, "A worker dies
 * mid-upsert".
 */
export class JobSettlements {
  private pending: Array<{ erpId: string; settlement: RecordSettlement }> = [];
  /** Records locked by this job and not yet settled in Redis (what a long job keeps its locks for). */
  readonly held = new Set<string>();
  private mustFlush = false;

  constructor(
    private readonly state: Pick<UpsertState, 'settleMany'>,
    private readonly connection: string,
    private readonly entity: string,
    /** The lock owner: the job's id, so the same job run again takes its locks back. */
    readonly owner: string,
    /** The job that carries the records now: their in-flight entries name it. */
    readonly jobId: string,
    private readonly log: Logger,
  ) {}

  /** A record whose lock this job took. */
  locked(erpId: string): void {
    this.held.add(erpId);
  }

  /** `now`: the record's write must not be repeated by a run of this job that dies after it (an attachment). */
  add(erpId: string, settlement: RecordSettlement, now = false): void {
    this.pending.push({ erpId, settlement });
    if (now) this.mustFlush = true;
  }

  /** Whether a settlement waits that must reach Redis before the job writes anything else. */
  get urgent(): boolean {
    return this.mustFlush;
  }

  async flush(): Promise<void> {
    const records = this.pending;
    if (!records.length) return;
    this.pending = [];
    this.mustFlush = false;
    // Out of the set the lease keeper renews before SETTLE releases them: a renewal landing after the
    // release would find them gone and warn of a lost lease that nothing lost. Back in if SETTLE failed
    // (the locks may still be held, and the job's next run takes them back under the same owner).
    const settling = records.map((r) => r.erpId).filter((id) => this.held.delete(id));
    let written: boolean[];
    try {
      written = await this.state.settleMany(this.connection, this.entity, records, this.owner, this.jobId);
    } catch (err) {
      for (const id of settling) this.held.add(id);
      throw err;
    }
    for (const [i, r] of records.entries()) {
      if (r.settlement.outcome === 'written' && !written[i])
        this.log.info(
          { erpId: r.erpId },
          'a newer version reached the ledger first; it will be (or was) written after this one',
        );
    }
  }
}
