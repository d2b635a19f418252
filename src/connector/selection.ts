/**
 * Which of a vendor's records a stream takes, as one table per stream (connectors/README.md, "The
 * contract"). The same table serves every way the stream reads:
 * - its pull: the pager asks the vendor to filter by each row it can express (`listFilter`: Xero's
 *   `where`, a Zoho list parameter), so the list never carries what billing does not take;
 * - every record the stream yields, by its list or by id (a webhook's announced read, a repair): a record
 *   whose value is not one the row takes is `notForBilling` with the row's reason, so the pipeline skips
 *   and counts it, never maps or quarantines it.
 * A read by id asks without the list filter: the vendor answers for every id it has, and this table
 * decides, so a supplier's document announced by a webhook is counted as skipped, not taken for a delete.
 *
 * Draft, void and delete rules are the stream's `lifecycle` and `deleted` words (define-stream.ts), read
 * the same way by both reads.
 */
export interface SelectionRow<Raw> {
  /** The vendor's field, as its API names it (also the list filter's field, where it is one). */
  field: string;
  /** The values of the records billing takes (compared without regard to case). */
  takes: readonly string[];
  /** What a record with another value is (SourceRecord.notForBilling), e.g. "a bill (ACCPAY), not a sales invoice". */
  otherwise: string;
  /**
   * The value to compare when it is not `raw[field]` as text (Xero contacts: supplier or customer, from
   * two flags). Undefined: the record does not say, and is taken (the vendor's list filter chose it).
   */
  valueIn?(raw: Raw): string | undefined;
  /** True when the pull asks the vendor to filter by this row; false: only each record is checked. */
  listFilter: boolean;
}

export type Selection<Raw> = readonly SelectionRow<Raw>[];

/** Why a record is not one the stream takes (the first row it fails), or undefined when it is taken. */
export function outsideSelection<Raw>(selection: Selection<Raw> | undefined, raw: Raw): string | undefined {
  for (const row of selection ?? []) {
    const value = row.valueIn ? row.valueIn(raw) : textOf((raw as Record<string, unknown>)[row.field]);
    if (value === undefined) continue;
    if (row.takes.some((t) => t.toLowerCase() === value.toLowerCase())) continue;
    return row.valueIn ? row.otherwise : `${row.otherwise} (${row.field} ${value})`;
  }
  return undefined;
}

/** The rows the pull sends to the vendor as its list filter. */
export function listFilters<Raw>(selection: Selection<Raw> | undefined): Array<SelectionRow<Raw>> {
  return (selection ?? []).filter((r) => r.listFilter);
}

function textOf(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
