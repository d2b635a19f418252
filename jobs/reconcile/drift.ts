/** The kinds of drift reconciliation reports. */
export const DRIFT_KINDS = [
  'missing_in_billing',
  'orphan_in_billing',
  'field_mismatch',
  'stale_version',
  /**
   * The ledger holds a version the source never had, e.g. a webhook's wrong or forged time: in the
   * future (normal mode), or newer than the source's own, or a delete mark on a record the source has
   * live (deep mode). Every later change would look older than it and never be written; a repair reads
   * it again and rewrites it.
   */
  'ledger_ahead_of_source',
  'void_not_reflected',
  /** Voided in billing while the source holds the invoice as live: a receivable gone from billing only. */
  'void_in_billing_only',
  /** Deleted in the source while billing still lists it (counted on the day the delete was seen). */
  'delete_not_reflected',
  /**
   * Deleted in billing while the source holds the invoice as live: billing refused to take it back (409),
   * so no sync can restore it. The listing never shows deleted invoices, so until a write was refused the
   * same record is reported as `missing_in_billing` (a repair's write is what tells the two apart).
   */
  'deleted_in_billing_only',
  'duplicate',
  /** An in-flight record whose upsert job was gone or had failed unaccounted (jobs/sweep/sweep-processor.ts acted on it). */
  'lost_in_flight',
  /**
   * Not in billing (or at an older version) because it is held for review before write
   * (`connections[].review`, `erp-sync review list`): a person's decision, not a sync, brings it.
   */
  'held',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** What a sync can fix by writing again; the rest needs a person (the interface cannot express it). */
export const FIXABLE: ReadonlySet<DriftKind> = new Set([
  'missing_in_billing',
  'field_mismatch',
  'stale_version',
  'ledger_ahead_of_source',
  'lost_in_flight',
]);

export interface DriftItem {
  kind: DriftKind;
  erpId?: string;
  invoiceId?: string;
  invoiceNumber?: string;
  /** e.g. "invoiceTotal: ledger 1180 ≠ billing 1.00". */
  detail: string;
  /** A sync cannot fix it (a void or delete the interface cannot express, an orphan, a duplicate, or
   * a record billing refused to take back, e.g. one deleted in billing). */
  needsPerson?: boolean;
}

/** Counts per kind (always complete) and the first `cap` items (memory stays bounded). */
export class DriftReport {
  readonly counts: Record<DriftKind, number> = Object.fromEntries(DRIFT_KINDS.map((k) => [k, 0])) as Record<
    DriftKind,
    number
  >;
  readonly items: DriftItem[] = [];
  truncated = 0;
  checked = { billing: 0, ledger: 0, source: 0 };

  /** `onAdd`: sees every item, kept or not (what a repair collects must not stop at the cap). */
  constructor(
    private readonly cap = 10_000,
    private readonly onAdd?: (item: DriftItem) => void,
  ) {}

  private person = 0;

  add(item: DriftItem): void {
    item.needsPerson ??= !FIXABLE.has(item.kind);
    if (item.needsPerson) this.person++;
    this.counts[item.kind]++;
    this.onAdd?.(item);
    if (this.items.length < this.cap) this.items.push(item);
    else this.truncated++;
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }

  get needsPerson(): number {
    return this.person;
  }

  /** What a reconcile's result says of its drift. */
  summary() {
    return {
      counts: this.counts,
      total: this.total,
      needsPerson: this.needsPerson,
      checked: this.checked,
      items: this.items,
      truncated: this.truncated,
    };
  }
}
