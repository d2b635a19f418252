import type {
  CreditNoteInput,
  CustomerDetails,
  InvoiceInput,
  LifecycleStatus,
  UsageDriverInput,
} from '../../src/billing/schemas/index.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { utcDateOf } from './service-timestamp.js';
import { outstandingOf } from './invoice-record.js';
import { sum } from '../kit/minor-units.js';
import { sameContent } from './same-content.js';
import { seedBillingSetup, type SetupData } from './seed.js';
import type { StoredAttachment, StoredInvoice } from './stored-invoice.js';

// Re-exported: the emulator's modules import the stored shapes from the store.
export type { StoredAttachment, StoredInvoice } from './stored-invoice.js';

/**
 * The emulator's in-memory state, scoped by company for everything. Sized for 200,000+ invoices per
 * company: a Map by invoiceId, an array in creation order, indexes by invoice number and buyer, and a
 * sort index by (invoiceDate, creation order) that is rebuilt lazily only after an insert or an
 * invoiceDate change. No per-upsert work is proportional to the number of invoices.
 */

export interface StoredCreditNote {
  readonly id: string;
  input: CreditNoteInput;
  createdAtMs: number;
  updatedAtMs: number;
  /** The invoices it is applied to, with the amount per invoice (A20). */
  applied: Map<StoredInvoice, number>;
  attachments: StoredAttachment[];
}

export interface StoredCustomer {
  readonly id: string;
  details: CustomerDetails;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface StoredUsageDriver {
  readonly id: string;
  input: UsageDriverInput;
  createdAtMs: number;
}

/** buyerId of an invoice: customerDetails.buyerId, else customerId. */
export function buyerIdOf(input: InvoiceInput): string | undefined {
  return input.customerDetails?.buyerId ?? input.customerId;
}

const DAY_MS = 86_400_000;
const SEQ_BITS = 2 ** 24; // up to 16.7M invoices per company in the sort key
const DAY_OFFSET = 1_000_000; // keeps day numbers positive (dates back to ~ year -770)
const NO_DATE = 0; // missing invoiceDate sorts as the earliest date

function dayNumber(date: string | undefined): number {
  return date === undefined ? NO_DATE : Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS) + DAY_OFFSET;
}

export class CompanyState {
  readonly invoices: StoredInvoice[] = [];
  readonly invoiceById = new Map<string, StoredInvoice>();
  /** invoiceNumber → the most recently created invoice with that number. */
  private readonly invoiceByNumber = new Map<string, StoredInvoice>();
  private readonly invoicesByBuyer = new Map<string, Set<StoredInvoice>>();
  private sortedAsc?: StoredInvoice[];
  private sortedDesc?: StoredInvoice[];

  readonly creditNotes = new Map<string, StoredCreditNote>();
  readonly creditNoteByNumber = new Map<string, StoredCreditNote>();
  readonly customers: StoredCustomer[] = [];
  readonly customerByBuyer = new Map<string, StoredCustomer>();
  readonly usageDrivers: StoredUsageDriver[] = [];
  readonly usageDriverNames = new Set<string>();

  constructor(
    readonly companyId: string,
    readonly baseCurrency: string,
    readonly setup: SetupData,
  ) {}

  // ---- invoices --------------------------------------------------------------------------------

  insertInvoice(id: string, input: InvoiceInput, lifecycleStatus: LifecycleStatus, nowMs: number): StoredInvoice {
    const date = utcDateOf(nowMs);
    const inv: StoredInvoice = {
      seq: this.invoices.length,
      id,
      input,
      lifecycleStatus,
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      createdDate: date,
      updatedDate: date,
      outstanding: outstandingOf(input),
      invoiceDay: dayNumber(input.invoiceDate?.date),
      originSource: input.invoiceOriginSource,
      creditNoteAdjusted: 0,
      attachments: [],
    };
    this.invoices.push(inv);
    this.invoiceById.set(input.invoiceId, inv);
    this.indexInvoice(inv);
    this.sortedAsc = this.sortedDesc = undefined;
    return inv;
  }

  /** Replaces the stored fields; bumps updatedAt only when the content changed. Returns whether it did. */
  replaceInvoiceInput(inv: StoredInvoice, input: InvoiceInput, nowMs: number): boolean {
    if (sameContent(inv.input, input)) return false;
    const before = inv.input;
    if (before.invoiceNumber !== input.invoiceNumber || buyerIdOf(before) !== buyerIdOf(input)) {
      this.unindexInvoice(inv);
      inv.input = input;
      this.indexInvoice(inv);
    } else inv.input = input;
    if (before.invoiceDate?.date !== input.invoiceDate?.date) {
      inv.invoiceDay = dayNumber(input.invoiceDate?.date);
      this.sortedAsc = this.sortedDesc = undefined;
    }
    inv.outstanding = outstandingOf(input);
    inv.originSource = input.invoiceOriginSource;
    this.touchInvoice(inv, nowMs);
    return true;
  }

  setLifecycle(inv: StoredInvoice, status: LifecycleStatus, nowMs: number): void {
    if (inv.lifecycleStatus === status) return;
    inv.lifecycleStatus = status;
    this.touchInvoice(inv, nowMs);
  }

  touchInvoice(inv: StoredInvoice, nowMs: number): void {
    inv.updatedAtMs = nowMs;
    inv.updatedDate = utcDateOf(nowMs);
  }

  /** Sets (or, with amount undefined, removes) one credit note's application to an invoice. */
  applyCreditNote(inv: StoredInvoice, creditNoteId: string, amount: number | undefined, nowMs: number): void {
    const before = inv.creditNoteAdjusted;
    if (amount === undefined) inv.creditNotes?.delete(creditNoteId);
    else (inv.creditNotes ??= new Map()).set(creditNoteId, amount);
    inv.creditNoteAdjusted = inv.creditNotes ? sum(inv.creditNotes.values()) : 0;
    if (inv.creditNoteAdjusted !== before) this.touchInvoice(inv, nowMs);
  }

  /** A live (not DELETED) invoice by its number. */
  invoiceByNumberLive(invoiceNumber: string): StoredInvoice | undefined {
    const inv = this.invoiceByNumber.get(invoiceNumber);
    if (inv && inv.lifecycleStatus !== 'DELETED') return inv;
    // The newest holder of the number may be deleted while an older one is not: fall back to a scan.
    for (let i = this.invoices.length - 1; i >= 0; i--) {
      const o = this.invoices[i]!;
      if (o.input.invoiceNumber === invoiceNumber && o.lifecycleStatus !== 'DELETED') return o;
    }
    return undefined;
  }

  invoicesOfBuyer(buyerId: string): ReadonlySet<StoredInvoice> {
    return this.invoicesByBuyer.get(buyerId) ?? new Set();
  }

  /**
   * Invoices ordered by invoiceDate (ascending or descending), ties by creation order (A13);
   * a missing invoiceDate sorts as the earliest date. Cached until an insert or an invoiceDate change.
   */
  sortedInvoices(descending: boolean): readonly StoredInvoice[] {
    const cached = descending ? this.sortedDesc : this.sortedAsc;
    if (cached) return cached;
    const n = this.invoices.length;
    const keys = new Float64Array(n);
    const maxDay = 2 * DAY_OFFSET + 4_000_000;
    for (let i = 0; i < n; i++) {
      const day = this.invoices[i]!.invoiceDay;
      keys[i] = (descending ? maxDay - day : day) * SEQ_BITS + i;
    }
    keys.sort();
    const out = new Array<StoredInvoice>(n);
    for (let i = 0; i < n; i++) out[i] = this.invoices[keys[i]! % SEQ_BITS]!;
    if (descending) this.sortedDesc = out;
    else this.sortedAsc = out;
    return out;
  }

  private indexInvoice(inv: StoredInvoice): void {
    this.invoiceByNumber.set(inv.input.invoiceNumber, inv);
    const buyer = buyerIdOf(inv.input);
    if (buyer !== undefined) {
      let set = this.invoicesByBuyer.get(buyer);
      if (!set) this.invoicesByBuyer.set(buyer, (set = new Set()));
      set.add(inv);
    }
  }

  private unindexInvoice(inv: StoredInvoice): void {
    if (this.invoiceByNumber.get(inv.input.invoiceNumber) === inv) this.invoiceByNumber.delete(inv.input.invoiceNumber);
    const buyer = buyerIdOf(inv.input);
    if (buyer !== undefined) this.invoicesByBuyer.get(buyer)?.delete(inv);
  }
}

export interface BillingStoreOptions {
  clock: EmulatorClock;
  /** Seed of the generated billing-setup data (contracts, fee components, rate cards, tags). */
  seed?: number;
  /** Base currency per company; default INR. */
  baseCurrency?: Record<string, string>;
}

export class BillingStore {
  readonly clock: EmulatorClock;
  readonly seed: number;
  private readonly baseCurrencies: Record<string, string>;
  private companies = new Map<string, CompanyState>();
  private counters = new Map<string, number>();

  constructor(options: BillingStoreOptions) {
    this.clock = options.clock;
    this.seed = options.seed ?? 1;
    this.baseCurrencies = options.baseCurrency ?? {};
  }

  /** The state of one company, created (and its setup data seeded) on first use. */
  company(companyId: string): CompanyState {
    let c = this.companies.get(companyId);
    if (!c) {
      const base = this.baseCurrencies[companyId] ?? 'INR';
      c = new CompanyState(companyId, base, seedBillingSetup(companyId, this.seed, base));
      this.companies.set(companyId, c);
    }
    return c;
  }

  /** Companies that hold state. */
  knownCompanies(): string[] {
    return [...this.companies.keys()];
  }

  /** Next service id for a prefix: `inv_1`, `inv_2`, … (global across companies). */
  nextId(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}_${n}`;
  }

  /** Wipes everything; setup data is re-seeded on next use. */
  reset(): void {
    this.companies = new Map();
    this.counters = new Map();
  }
}
