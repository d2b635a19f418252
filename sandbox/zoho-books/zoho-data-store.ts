import { applyMutation, type MutationTarget, type RecordKind } from './apply-mutation.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { creditNoteBalanceMinor, creditsByInvoice } from './generate-credit-notes.js';
import type { ZohoDataset } from './generate-data.js';
import { invoiceBalanceMinor } from './invoice-status.js';
import { convertMinor } from '../kit/minor-units.js';
import { NO_RECEIVABLES, type Receivables } from './render-contact.js';
import type { RenderContext } from './render-context.js';
import type { ContactRecord, CreditNoteRecord, CurrencyCode, CurrencyRecord, InvoiceRecord } from './store-records.js';
import { formatZohoDate } from './zoho-timestamp.js';
import { ZohoReplayedRecords } from './replayed-records.js';
import { ChangeFeed } from '../kit/change-feed.js';
import { batchChanges } from './batch-changes.js';
import {
  parseMutationBatch,
  type ContactChanges,
  type ZohoMutationBatch,
  type InvoiceChanges,
  type ZohoMutation,
  type ZohoMutationResult,
} from './zoho-mutation.js';

/**
 * The sandbox organisation's data, read by the routes and changed by mutations (what a Zoho user does
 * between syncs). Mutations stamp `last_modified_time` from the emulator clock, whole seconds.
 */
export class ZohoDataStore implements MutationTarget {
  /**
   * The generation context (organisation, taxes, items, id sequences, seeded stream). Its record arrays are
   * the records as generated; the current records are in the maps (invoices(), creditNotes(), contacts()).
   */
  data!: ZohoDataset;
  readonly invoiceMap = new Map<string, InvoiceRecord>();
  readonly creditNoteMap = new Map<string, CreditNoteRecord>();
  readonly contactMap = new Map<string, ContactRecord>();
  /** Records and organisation settings replayed in Zoho's own JSON (POST /__admin/records, /__admin/organisation). */
  readonly replayed = new ZohoReplayedRecords();
  /** Every record a mutation batch created, edited, voided or deleted, after the batch (the webhook sender listens). */
  readonly feed = new ChangeFeed();
  private credits = new Map<string, number>();
  /** Counts loads and mutation batches (applied or rolled back). */
  private changes = 0;
  private currencyMap = new Map<CurrencyCode, CurrencyRecord>();
  /** Pre-batch copies of the records a batch touched (undefined = did not exist), for rollback. */
  private undo:
    | Map<
        string,
        { kind: RecordKind; id: string; before: InvoiceRecord | CreditNoteRecord | ContactRecord | undefined }
      >
    | undefined;
  readonly render: RenderContext;

  constructor(
    dataset: ZohoDataset,
    readonly clock: EmulatorClock,
  ) {
    this.load(dataset);
    const store = this;
    this.render = {
      get organization() {
        return store.data.organization;
      },
      get taxes() {
        return store.data.taxes;
      },
      get salesAccountId() {
        return store.data.salesAccountId;
      },
      currency: (code) => {
        const c = this.currencyMap.get(code);
        if (!c) throw new Error(`unknown currency ${code}`);
        return c;
      },
      contact: (id) => this.contactMap.get(id),
      creditsAppliedMinor: (id) => this.creditsAppliedMinor(id),
    };
  }

  /** Replaces all data (POST /__admin/reset). */
  load(dataset: ZohoDataset): void {
    this.changes += 1;
    this.data = dataset;
    this.invoiceMap.clear();
    this.creditNoteMap.clear();
    this.contactMap.clear();
    for (const inv of dataset.invoices) this.invoiceMap.set(inv.invoice_id, inv);
    for (const cn of dataset.creditNotes) this.creditNoteMap.set(cn.creditnote_id, cn);
    for (const c of dataset.contacts) this.contactMap.set(c.contact_id, c);
    this.currencyMap = new Map(dataset.currencies.map((c) => [c.currency_code, c]));
    this.replayed.clear();
    this.refreshCredits();
  }

  /**
   * Changes whenever a record the lists print may have changed (a load, a mutation batch, a replay): list
   * routes keep their sorted records until it does.
   */
  get version(): string {
    return `${this.changes}:${this.replayed.version}`;
  }

  /** The organisation the API answers for: a replayed organisation's id, else the generated one's. */
  get organizationId(): string {
    const replayed = this.replayed.organisation?.organization.organization_id;
    return replayed === undefined ? this.data.organization.organization_id : String(replayed);
  }

  get organization() {
    return this.data.organization;
  }
  get taxes() {
    return this.data.taxes;
  }

  invoices(): InvoiceRecord[] {
    return [...this.invoiceMap.values()];
  }
  invoice(id: string): InvoiceRecord | undefined {
    return this.invoiceMap.get(id);
  }
  creditNotes(): CreditNoteRecord[] {
    return [...this.creditNoteMap.values()];
  }
  creditNote(id: string): CreditNoteRecord | undefined {
    return this.creditNoteMap.get(id);
  }
  contacts(): ContactRecord[] {
    return [...this.contactMap.values()];
  }
  contact(id: string): ContactRecord | undefined {
    return this.contactMap.get(id);
  }

  creditsAppliedMinor(invoiceId: string): number {
    return this.credits.get(invoiceId) ?? 0;
  }

  refreshCredits(): void {
    this.credits = creditsByInvoice([...this.creditNoteMap.values()]);
  }

  /** The organisation's calendar date at the emulator's now. */
  today(): string {
    return formatZohoDate(this.clock.now(), this.data.organization.offsetMinutes);
  }

  /**
   * Outstanding receivables and unused credits per contact (or only `contactId`'s), from posted invoices
   * and open credit notes.
   */
  receivables(contactId?: string): Map<string, Receivables> {
    const out = new Map<string, Receivables>();
    const entry = (id: string): Receivables => {
      const r = out.get(id) ?? { ...NO_RECEIVABLES };
      out.set(id, r);
      return r;
    };
    for (const inv of this.invoiceMap.values()) {
      if (inv.status === 'draft' || inv.status === 'void' || (contactId !== undefined && inv.customer_id !== contactId))
        continue;
      const balance = invoiceBalanceMinor(inv, this.creditsAppliedMinor(inv.invoice_id));
      const r = entry(inv.customer_id);
      r.outstandingMinor += balance;
      r.outstandingBcyMinor += convertMinor(balance, inv.exchangeRateMicro, 'micro');
    }
    for (const cn of this.creditNoteMap.values()) {
      if (cn.status !== 'open' || (contactId !== undefined && cn.customer_id !== contactId)) continue;
      const balance = creditNoteBalanceMinor(cn);
      const r = entry(cn.customer_id);
      r.unusedCreditsMinor += balance;
      r.unusedCreditsBcyMinor += convertMinor(balance, cn.exchangeRateMicro, 'micro');
    }
    return out;
  }

  /**
   * Applies a batch atomically: every op is stamped with the same whole second (the clock's, or `at`);
   * if any op fails, nothing changes and the MutationError propagates.
   */
  mutate(batch: ZohoMutationBatch | ZohoMutation, options: { at?: string | number | Date } = {}): ZohoMutationResult[] {
    const parsed = parseMutationBatch(Array.isArray(batch) || 'ops' in batch ? batch : [batch]);
    const ops = parsed.ops;
    const at = options.at ?? parsed.at;
    const instant = at !== undefined ? new Date(at).getTime() : this.clock.now();
    const now = Math.floor(instant / 1000) * 1000;
    this.undo = new Map();
    try {
      const results = ops.map((op) => applyMutation(this, op, now));
      this.refreshCredits();
      const changes = batchChanges(this, this.undo.values(), now);
      this.undo = undefined;
      for (const change of changes) this.feed.emit(change);
      return results;
    } catch (e) {
      this.rollback();
      throw e;
    } finally {
      this.undo = undefined;
      this.changes += 1;
    }
  }

  remember(kind: RecordKind, id: string): void {
    const key = `${kind}:${id}`;
    if (!this.undo || this.undo.has(key)) return;
    const current = this.mapOf(kind).get(id);
    this.undo.set(key, { kind, id, before: current === undefined ? undefined : structuredClone(current) });
  }

  editInvoice(invoiceId: string, changes?: InvoiceChanges): ZohoMutationResult {
    return this.one({ op: 'edit_invoice', invoice_id: invoiceId, ...(changes ? { changes } : {}) });
  }

  createInvoice(input: Omit<Extract<ZohoMutation, { op: 'create_invoice' }>, 'op'> = {}): ZohoMutationResult {
    return this.one({ op: 'create_invoice', ...input });
  }

  voidInvoice(invoiceId: string, options: { force?: boolean } = {}): ZohoMutationResult {
    return this.one({ op: 'void_invoice', invoice_id: invoiceId, ...options });
  }

  deleteInvoice(invoiceId: string, options: { force?: boolean } = {}): ZohoMutationResult {
    return this.one({ op: 'delete_invoice', invoice_id: invoiceId, ...options });
  }

  recordPayment(invoiceId: string, payment: { amount?: number; date?: string } = {}): ZohoMutationResult {
    return this.one({ op: 'record_payment', invoice_id: invoiceId, ...payment });
  }

  editContact(contactId: string, changes?: ContactChanges): ZohoMutationResult {
    return this.one({ op: 'edit_contact', contact_id: contactId, ...(changes ? { changes } : {}) });
  }

  /** Several edits stamped with the same second (the classic cursor trap). */
  editInvoicesInSameSecond(invoiceIds: readonly string[]): ZohoMutationResult[] {
    return this.mutate(invoiceIds.map((id) => ({ op: 'edit_invoice' as const, invoice_id: id })));
  }

  private one(op: ZohoMutation): ZohoMutationResult {
    const [result] = this.mutate([op]);
    if (!result) throw new Error('mutation produced no result');
    return result;
  }

  private mapOf(kind: RecordKind): Map<string, InvoiceRecord | CreditNoteRecord | ContactRecord> {
    return kind === 'invoice' ? this.invoiceMap : kind === 'creditnote' ? this.creditNoteMap : this.contactMap;
  }

  private rollback(): void {
    for (const { kind, id, before } of this.undo?.values() ?? []) {
      const map = this.mapOf(kind);
      if (before === undefined) map.delete(id);
      else map.set(id, before);
    }
    this.refreshCredits();
  }
}
