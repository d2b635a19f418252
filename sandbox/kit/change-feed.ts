/**
 * The changes an ERP emulator records (every create, edit, void and delete, whoever made it), in one shape
 * for every vendor: what its webhook sender turns into the vendor's deliveries, and what
 * `POST /__admin/changes` answers.
 */
export const CHANGE_ENTITIES = ['invoices', 'credit-notes', 'customers'] as const;
export type ChangeEntity = (typeof CHANGE_ENTITIES)[number];
export const CHANGE_OPS = ['create', 'edit', 'void', 'delete'] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];

export interface RecordedChange {
  entity: ChangeEntity;
  op: ChangeOp;
  id: string;
  /** The organisation the record belongs to: Xero tenant, QuickBooks realm, Zoho organization id. */
  organisation: string;
  /** The instant the ERP stamped the change with (epoch ms). */
  modifiedAt: number;
  /** The record as the vendor's webhook carries it at that instant (Zoho posts the record's fields). */
  record?: Record<string, unknown>;
  /** Renders `record` now; called only by a sender that will deliver the change (rendering costs). */
  render?: () => Record<string, unknown>;
}

type Listener = (change: RecordedChange) => void;

/** A synchronous fan-out of recorded changes: the store emits, the webhook sender (and tests) listen. */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: RecordedChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
