import { computeAmounts } from './compute-amounts.js';
import { buildDocument, exchangeRateFor, generateLines, taxCodeFor } from './build-document.js';
import { INDIA_COMPANY, ITEMS, type QboCompanyProfile } from './catalog.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { DeletedStub, DocKind, EntityKind, StoredCustomer, StoredDoc, StoredLine } from './model.js';
import { toMinor } from '../kit/minor-units.js';
import { localDate, renderTimestamp } from './qbo-time.js';
import { type RenderContext, renderCustomer, renderDoc, renderReference } from './render.js';
import { SeededRandom } from '../kit/seeded-random.js';
import { ChangeFeed, type ChangeOp } from '../kit/change-feed.js';
import { isReplayEntity, QboReplayedRecords, replayedUpdatedMs } from './replayed-records.js';

/** What POST /__admin/invoices (and store.createInvoice) accept. Amounts in rupees (decimal numbers). */
export interface CreateInvoiceInput {
  customerId?: string;
  lines?: Array<{ itemId?: string; qty: number; unitPrice: number | string; description?: string }>;
  /** GST rate in percent (5, 12, 18, 28); the tax code follows the customer's state. @defaultValue 18 */
  gstPercent?: number;
  taxCodeId?: string;
  /** Foreign-currency customers: home per foreign; null = no rate at all (a broken record). */
  exchangeRate?: string | number | null;
  discountPercent?: number;
  discountAmount?: number | string;
  applyTaxAfterDiscount?: boolean;
  txnDate?: string;
  dueDate?: string;
  docNumber?: string;
  privateNote?: string;
  /** Instant to stamp (ISO); default the emulator clock, to the second. */
  at?: string;
}

export interface EditInput {
  qty?: number;
  unitPrice?: number | string;
  docNumber?: string;
  dueDate?: string;
  privateNote?: string;
  customerMemo?: string;
  at?: string;
}

export class NotFound extends Error {}
export class Invalid extends Error {}

/**
 * The sandbox company's data and every mutation a QBO user (or Intuit) makes to it. Each mutation stamps
 * LastUpdatedTime with the emulator clock to the second (or an explicit `at`) and bumps SyncToken, so
 * tests can put many edits in one second, and deletes leave a CDC stub.
 */
export class QboStore {
  readonly customers = new Map<string, StoredCustomer>();
  readonly docs: Record<DocKind, Map<string, StoredDoc>> = { Invoice: new Map(), CreditMemo: new Map() };
  deleted: DeletedStub[] = [];
  readonly counters = { Customer: 0, Invoice: 0, CreditMemo: 0, Payment: 0 };
  createdAt = 0;
  private readonly cache = new Map<string, { key: string; json: Record<string, unknown> }>();
  private rng = new SeededRandom('admin');
  /** Records and company settings replayed in QBO's own JSON (POST /__admin/records, /__admin/organisation). */
  readonly replayed = new QboReplayedRecords();
  /** Every create, update, void and delete a person makes, after it is made (the webhook sender listens). */
  readonly feed = new ChangeFeed();
  /** The realm the feed names (set by the emulator). */
  organisation = '';
  private quiet = 0;

  constructor(
    readonly clock: EmulatorClock,
    readonly config: { offsetMinutes: number; homeCurrency: string; company?: QboCompanyProfile },
  ) {}

  get renderContext(): RenderContext {
    return {
      offsetMinutes: this.config.offsetMinutes,
      homeCurrency: this.config.homeCurrency,
      company: this.config.company ?? INDIA_COMPANY,
      customer: (id) => this.customers.get(id),
    };
  }

  /** Every record of an entity as QBO JSON, in Id order (reference entities included); replayed records as given. */
  rows(entity: string): Array<Record<string, unknown>> {
    if (isReplayEntity(entity)) return [...this.generatedRows(entity), ...this.replayed.all(entity)];
    return this.replayed.reference(entity) ?? renderReference(entity, this.createdAt, this.renderContext);
  }

  private generatedRows(entity: 'Invoice' | 'CreditMemo' | 'Customer'): Array<Record<string, unknown>> {
    if (entity === 'Customer')
      return [...this.customers.values()]
        .filter((c) => !this.replayed.has('Customer', c.id))
        .map((c) =>
          this.rendered(`C${c.id}`, `${c.syncToken}:${c.lastUpdated}`, () => renderCustomer(c, this.renderContext)),
        );
    return [...this.docs[entity].values()]
      .filter((d) => !this.replayed.has(entity, d.id))
      .map((d) =>
        this.rendered(
          `${entity}${d.id}`,
          `${d.syncToken}:${d.lastUpdated}:${d.customerId}:${this.customers.get(d.customerId)?.syncToken}`,
          () => renderDoc(d, this.renderContext),
        ),
      );
  }

  private rendered(id: string, key: string, render: () => Record<string, unknown>): Record<string, unknown> {
    const hit = this.cache.get(id);
    if (hit && hit.key === key) return hit.json;
    const json = render();
    this.cache.set(id, { key, json });
    return json;
  }

  /** Empties the company (POST /__admin/reset regenerates it). */
  clear(): void {
    this.customers.clear();
    this.docs.Invoice.clear();
    this.docs.CreditMemo.clear();
    this.deleted = [];
    this.cache.clear();
    this.replayed.clear();
    for (const k of Object.keys(this.counters) as Array<keyof QboStore['counters']>) this.counters[k] = 0;
  }

  /** Runs `fn` without recording changes: generating the company is not a person editing it. */
  silently<T>(fn: () => T): T {
    this.quiet += 1;
    try {
      return fn();
    } finally {
      this.quiet -= 1;
    }
  }

  private emit<T>(kind: DocKind | 'Customer', op: ChangeOp, id: string, at: number, value: T): T {
    const entity = kind === 'Invoice' ? 'invoices' : kind === 'CreditMemo' ? 'credit-notes' : 'customers';
    if (!this.quiet) this.feed.emit({ entity, op, id, organisation: this.organisation, modifiedAt: at });
    return value;
  }

  doc(kind: DocKind, id: string): StoredDoc {
    const d = this.docs[kind].get(id);
    if (!d) throw new NotFound(`${kind} ${id} not found`);
    return d;
  }

  customer(id: string): StoredCustomer {
    const c = this.customers.get(id);
    if (!c) throw new NotFound(`Customer ${id} not found`);
    return c;
  }

  private stamp(at?: string | number): number {
    if (at === undefined) return this.clock.nowSecond();
    const ms = typeof at === 'number' ? at : Date.parse(at);
    if (Number.isNaN(ms)) throw new Invalid(`not an instant: ${String(at)}`);
    return Math.floor(ms / 1000) * 1000;
  }

  private touchRecord(r: { syncToken: number; lastUpdated: number }, at: number): void {
    r.syncToken += 1;
    r.lastUpdated = at;
  }

  nextId(kind: keyof QboStore['counters']): string {
    this.counters[kind] += 1;
    return String(this.counters[kind]);
  }

  addCustomer(c: StoredCustomer): void {
    this.customers.set(c.id, c);
    this.counters.Customer = Math.max(this.counters.Customer, Number(c.id));
  }

  addDoc(d: StoredDoc): void {
    this.docs[d.kind].set(d.id, d);
    this.counters[d.kind] = Math.max(this.counters[d.kind], Number(d.id));
  }

  createInvoice(input: CreateInvoiceInput = {}, rng: SeededRandom = this.rng): StoredDoc {
    const at = this.stamp(input.at);
    const customer = input.customerId
      ? this.customer(input.customerId)
      : rng.pick([...this.customers.values()].filter((c) => c.active));
    const lines: StoredLine[] = input.lines
      ? input.lines.map((l, i) => {
          const item = ITEMS.find((it) => it.id === l.itemId) ?? ITEMS[0]!;
          return {
            id: String(i + 1),
            itemId: item.id,
            itemName: item.name,
            description: l.description ?? item.description,
            qty: l.qty,
            unitPricePaise: toMinor(l.unitPrice),
          };
        })
      : generateLines(rng, customer.currency === this.config.homeCurrency ? 1 : 80);
    if (lines.some((l) => !Number.isInteger(l.qty) || l.qty < 0))
      throw new Invalid('qty must be a non-negative integer');
    const foreign = customer.currency !== this.config.homeCurrency;
    const rate =
      input.exchangeRate === null
        ? undefined
        : input.exchangeRate !== undefined
          ? String(input.exchangeRate)
          : foreign
            ? exchangeRateFor(customer.currency, rng)
            : undefined;
    const id = this.nextId('Invoice');
    const txnDate = input.txnDate ?? localDate(at, this.config.offsetMinutes);
    const doc = buildDocument({
      kind: 'Invoice',
      id,
      docNumber: input.docNumber ?? `INV-${id.padStart(5, '0')}`,
      customer,
      txnDate,
      dueDate: input.dueDate ?? localDate(Date.parse(`${txnDate}T00:00:00Z`) + 30 * 86_400_000, 0),
      lines,
      taxCodeId: input.taxCodeId ?? taxCodeFor(customer, Math.round((input.gstPercent ?? 18) * 100)),
      ...(input.discountPercent ? { discount: { percentBp: Math.round(input.discountPercent * 100) } } : {}),
      ...(input.discountAmount ? { discount: { amountPaise: toMinor(input.discountAmount) } } : {}),
      ...(input.applyTaxAfterDiscount === undefined ? {} : { applyTaxAfterDiscount: input.applyTaxAfterDiscount }),
      ...(foreign && rate ? { exchangeRate: rate } : {}),
      ...(input.privateNote ? { privateNote: input.privateNote } : {}),
      at,
    });
    this.addDoc(doc);
    return this.emit('Invoice', 'create', doc.id, at, doc);
  }

  editInvoice(id: string, patch: EditInput, kind: DocKind = 'Invoice'): StoredDoc {
    const d = this.doc(kind, id);
    if (d.voided) throw new Invalid(`${kind} ${id} is voided`);
    const first = d.lines[0];
    if (patch.qty !== undefined && first) first.qty = patch.qty;
    if (patch.unitPrice !== undefined && first) first.unitPricePaise = toMinor(patch.unitPrice);
    if (patch.docNumber !== undefined) d.docNumber = patch.docNumber;
    if (patch.dueDate !== undefined) d.dueDate = patch.dueDate;
    if (patch.privateNote !== undefined) d.privateNote = patch.privateNote;
    if (patch.customerMemo !== undefined) d.customerMemo = patch.customerMemo;
    this.touchRecord(d, this.stamp(patch.at));
    return this.emit(kind, 'edit', d.id, d.lastUpdated, d);
  }

  /** QBO void: totals, balance and line quantities go to 0, PrivateNote "Voided"; the invoice stays. */
  voidInvoice(id: string, at?: string | number): StoredDoc {
    const d = this.doc('Invoice', id);
    d.voided = true;
    d.privateNote = d.privateNote ? `Voided - ${d.privateNote}` : 'Voided';
    this.touchRecord(d, this.stamp(at));
    return this.emit('Invoice', 'void', d.id, d.lastUpdated, d);
  }

  /** QBO delete: gone from queries and reads; CDC shows a stub for 30 days. */
  deleteDoc(kind: DocKind, id: string, at?: string | number): DeletedStub {
    this.doc(kind, id);
    this.docs[kind].delete(id);
    this.cache.delete(`${kind}${id}`);
    const stub: DeletedStub = { entity: kind, id, deletedAt: this.stamp(at) };
    this.deleted.push(stub);
    return this.emit(kind, 'delete', id, stub.deletedAt, stub);
  }

  /** A customer payment against an invoice (default: the whole balance). */
  recordPayment(id: string, amount?: number | string, at?: string | number): StoredDoc {
    const d = this.doc('Invoice', id);
    const balance = computeAmounts(d).balance;
    const paise = amount === undefined ? balance : toMinor(amount);
    if (paise <= 0 || paise > balance) throw new Invalid(`payment must be within the balance ${balance / 100}`);
    d.paidPaise += paise;
    d.linked.push({ TxnId: this.nextId('Payment'), TxnType: 'Payment' });
    this.touchRecord(d, this.stamp(at));
    return this.emit('Invoice', 'edit', d.id, d.lastUpdated, d);
  }

  /**
   * A credit memo for an invoice's customer, correcting that invoice (InvoiceRef, LinkedTxn), applied up
   * to the invoice's balance unless `apply` is false. Amount in rupees before tax (default: 20 % of the
   * invoice's first line).
   */
  createCreditMemo(input: {
    invoiceId: string;
    amount?: number | string;
    apply?: boolean;
    at?: string | number;
  }): StoredDoc {
    const inv = this.doc('Invoice', input.invoiceId);
    if (inv.voided) throw new Invalid(`Invoice ${inv.id} is voided`);
    const at = this.stamp(input.at);
    const first = inv.lines[0]!;
    const unit =
      input.amount !== undefined
        ? toMinor(input.amount)
        : Math.max(100, Math.round((first.unitPricePaise * first.qty) / 500) * 100);
    const id = this.nextId('CreditMemo');
    const memo = buildDocument({
      kind: 'CreditMemo',
      id,
      docNumber: `CN-${id.padStart(5, '0')}`,
      customer: this.customer(inv.customerId),
      txnDate: localDate(at, this.config.offsetMinutes),
      lines: [
        {
          id: '1',
          itemId: first.itemId,
          itemName: first.itemName,
          description: `Credit against ${inv.docNumber}`,
          qty: 1,
          unitPricePaise: unit,
        },
      ],
      taxCodeId: inv.taxCodeId,
      ...(inv.exchangeRate ? { exchangeRate: inv.exchangeRate } : {}),
      customerMemo: `Credit against ${inv.docNumber}`,
      ...(inv.classRef ? { classRef: inv.classRef } : {}),
      ...(inv.departmentRef ? { departmentRef: inv.departmentRef } : {}),
      invoiceRef: inv.id,
      at,
    });
    memo.linked.push({ TxnId: inv.id, TxnType: 'Invoice' });
    if (input.apply !== false) {
      const applied = Math.min(computeAmounts(memo).total, computeAmounts(inv).balance);
      if (applied > 0) {
        memo.creditPaise = applied;
        inv.creditPaise += applied;
        inv.linked.push({ TxnId: id, TxnType: 'CreditMemo' });
        this.touchRecord(inv, Math.max(at, inv.lastUpdated));
        this.emit('Invoice', 'edit', inv.id, inv.lastUpdated, inv);
      }
    }
    this.addDoc(memo);
    return this.emit('CreditMemo', 'create', memo.id, at, memo);
  }

  /** A customer as a person would add one: name, optional currency (default the home one) and address. */
  createCustomer(input: {
    displayName: string;
    currency?: string;
    billAddr?: StoredCustomer['billAddr'];
    at?: string;
  }): StoredCustomer {
    const at = this.stamp(input.at);
    const c: StoredCustomer = {
      id: this.nextId('Customer'),
      syncToken: 0,
      displayName: input.displayName,
      companyName: input.displayName,
      billAddr: { ...input.billAddr },
      currency: input.currency ?? this.config.homeCurrency,
      active: true,
      gstRegistrationType: 'GST_UNREG',
      createTime: at,
      lastUpdated: at,
    };
    this.addCustomer(c);
    return this.emit('Customer', 'create', c.id, at, c);
  }

  editCustomer(
    id: string,
    patch: { active?: boolean; displayName?: string; email?: string; at?: string },
  ): StoredCustomer {
    const c = this.customer(id);
    if (patch.active !== undefined) c.active = patch.active;
    if (patch.displayName !== undefined) c.displayName = patch.displayName;
    if (patch.email !== undefined) c.email = patch.email;
    this.touchRecord(c, this.stamp(patch.at));
    // Deleting a customer in QuickBooks makes it inactive; Intuit's event says Delete.
    return this.emit('Customer', patch.active === false ? 'delete' : 'edit', c.id, c.lastUpdated, c);
  }

  /** Same-second edits: every listed record (or the first `count`) gets one LastUpdatedTime. */
  touch(entity: EntityKind, ids: readonly string[], at?: string | number): number {
    const stamp = this.stamp(at);
    for (const id of ids) {
      const r = entity === 'Customer' ? this.customer(id) : this.doc(entity, id);
      this.touchRecord(r, stamp);
      this.emit(entity, 'edit', id, stamp, r);
    }
    return stamp;
  }

  /** For CDC: records changed (and stubs deleted) at or after `since`, oldest first. */
  changesSince(
    entity: DocKind | 'Customer',
    since: number,
  ): Array<{ at: number; id: string; json: Record<string, unknown> }> {
    const changed = this.rows(entity)
      .map((json) => ({ json, id: String(json.Id), at: this.lastUpdatedOf(entity, String(json.Id)) }))
      .filter((r) => r.at >= since);
    const stubs = this.deleted
      .filter((s) => s.entity === entity && s.deletedAt >= since)
      .map((s) => ({
        at: s.deletedAt,
        id: s.id,
        json: {
          domain: 'QBO',
          status: 'Deleted',
          Id: s.id,
          MetaData: { LastUpdatedTime: this.renderTime(s.deletedAt) },
        } as Record<string, unknown>,
      }));
    return [...changed, ...stubs].sort((a, b) => a.at - b.at || Number(a.id) - Number(b.id));
  }

  private lastUpdatedOf(entity: DocKind | 'Customer', id: string): number {
    const replayed = this.replayed.has(entity, id)
      ? this.replayed.all(entity).find((r) => String(r.Id) === id)
      : undefined;
    if (replayed) return replayedUpdatedMs(replayed, this.config.offsetMinutes);
    return entity === 'Customer' ? this.customer(id).lastUpdated : this.doc(entity, id).lastUpdated;
  }

  private renderTime(ms: number): string {
    return renderTimestamp(ms, this.config.offsetMinutes);
  }
}
