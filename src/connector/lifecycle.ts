/**
 * Where a source document stands, the same for every vendor, so nothing downstream reads a vendor's
 * status words: `draft` (held, not issued: not a receivable yet), `issued` (in effect: sent, open, paid,
 * applied…) or `void` (issued, then voided: kept by the vendor, never a delete). A customer has neither
 * drafts nor voids: a customer record is `issued` whatever its status (inactive and archived are statuses).
 */
export const LIFECYCLES = ['draft', 'issued', 'void'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** A vendor's status words for the two lifecycles that are not `issued`, exactly as the vendor writes them. */
export interface LifecycleStatuses {
  draft?: readonly string[];
  void?: readonly string[];
  /** The words above are lower case and the vendor's status is compared lower-cased (Zoho's words). */
  ignoreCase?: boolean;
}

/**
 * The lifecycle fields of a SourceRecord from the vendor's status: `lifecycle`, and `draft: true` for a
 * draft (what the pipeline reads to skip it).
 */
export function lifecycleOf(
  status: string | null | undefined,
  statuses: LifecycleStatuses,
): { lifecycle: Lifecycle; draft?: true } {
  if (statuses.ignoreCase) status = status?.toLowerCase();
  if (status != null && statuses.draft?.includes(status)) return { lifecycle: 'draft', draft: true };
  if (status != null && statuses.void?.includes(status)) return { lifecycle: 'void' };
  return { lifecycle: 'issued' };
}
