import { Money } from '../kit/minor-units.js';
import { currencyRateFor, type CurrencyRateConvention } from './currency-rate.js';
import type { LineSpec } from './document-amounts.js';
import {
  allocateCredit,
  applyPayment,
  buildCreditNote,
  buildInvoice,
  DocumentRuleError,
  deleteDocument,
  replaceInvoiceLines,
  voidDocument,
} from './document-ops.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { ChangeFeed, type ChangeEntity, type ChangeOp } from '../kit/change-feed.js';
import { generateContact, type ContactSpec } from './generate-contacts.js';
import type { TenantDataset } from './generate-data.js';
import { generateLineSpecs, pickLineAmountTypes } from './generate-lines.js';
import { SeededRandom } from '../kit/seeded-random.js';
import type { TenantProfile } from './tenants.js';
import { msDate, utcDay } from './xero-date.js';
import { ID_FIELD, type XeroRaw, type XeroReplayEntity } from './replayed-records.js';
import type { LineAmountTypes, XeroContact, XeroCreditNote, XeroInvoice, XeroOrganisation } from './xero-records.js';

/**
 * The sandbox's mutable state: per organisation, contacts, invoices and credit notes in insertion order,
 * and the changes a Xero user makes over time. Every change stamps `UpdatedDateUTC` with the emulator
 * clock (or with the one instant of a batch, for same-instant edits), exactly as Xero bumps it, so
 * `If-Modified-Since` sees it. Refused changes throw DocumentRuleError (the admin routes answer 400).
 */
export class NotFoundError extends Error {}

interface TenantState {
  profile: TenantProfile;
  organisation: XeroOrganisation;
  contacts: Map<string, XeroContact>;
  invoices: Map<string, XeroInvoice>;
  creditNotes: Map<string, XeroCreditNote>;
  /** Tax rates replayed in Xero's JSON (POST /__admin/organisation), in place of the profile's. */
  taxRates?: readonly Record<string, unknown>[];
  rng: SeededRandom;
}

export interface InvoiceCreate {
  contactId?: string;
  currency?: string;
  lineAmountTypes?: LineAmountTypes;
  status?: 'DRAFT' | 'SUBMITTED' | 'AUTHORISED';
  type?: 'ACCREC' | 'ACCPAY';
  date?: string;
  dueDate?: string;
  reference?: string;
  lines?: Array<Omit<LineSpec, 'LineItemID'>>;
}

export interface InvoiceEdit {
  reference?: string;
  dueDate?: string;
  status?: 'SUBMITTED' | 'AUTHORISED';
  lineAmountTypes?: LineAmountTypes;
  /** New lines; `true` = generate new ones. */
  lines?: Array<Omit<LineSpec, 'LineItemID'>> | true;
}

export interface CreditNoteCreate {
  contactId?: string;
  currency?: string;
  lineAmountTypes?: LineAmountTypes;
  status?: 'DRAFT' | 'AUTHORISED';
  lines?: Array<Omit<LineSpec, 'LineItemID'>>;
  /** Allocate to this invoice right away (amount: at most what is due; default all it can). */
  allocateTo?: { invoiceId: string; amount?: number };
}

export interface ContactEdit {
  name?: string;
  emailAddress?: string;
  taxNumber?: string | null;
}

export class XeroDataStore {
  private tenants = new Map<string, TenantState>();
  private fixedAt: number | undefined;
  /** Every create, edit, void, delete and archive, after it is made (the webhook sender listens). */
  readonly feed = new ChangeFeed();

  constructor(
    datasets: readonly TenantDataset[],
    readonly clock: EmulatorClock,
    readonly convention: CurrencyRateConvention,
    seed: number | string,
  ) {
    this.load(datasets, seed);
  }

  /** Replaces every organisation's data in place (reset), so references to this store stay valid. */
  load(datasets: readonly TenantDataset[], seed: number | string): void {
    this.tenants.clear();
    for (const d of datasets) {
      this.tenants.set(d.profile.tenantId, {
        profile: d.profile,
        organisation: d.organisation,
        contacts: new Map(d.contacts.map((c) => [c.ContactID, c])),
        invoices: new Map(d.invoices.map((i) => [i.InvoiceID, i])),
        creditNotes: new Map(d.creditNotes.map((c) => [c.CreditNoteID, c])),
        rng: new SeededRandom(`${String(seed)}:mutations:${d.profile.tenantId}`),
      });
    }
  }

  get tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  hasTenant(id: string): boolean {
    return this.tenants.has(id);
  }

  tenant(id: string): TenantState {
    const t = this.tenants.get(id);
    if (!t) throw new NotFoundError(`no organisation ${id}`);
    return t;
  }

  invoices(tenantId: string): XeroInvoice[] {
    return [...this.tenant(tenantId).invoices.values()];
  }

  creditNotes(tenantId: string): XeroCreditNote[] {
    return [...this.tenant(tenantId).creditNotes.values()];
  }

  contacts(tenantId: string): XeroContact[] {
    return [...this.tenant(tenantId).contacts.values()];
  }

  invoice(tenantId: string, idOrNumber: string): XeroInvoice {
    const t = this.tenant(tenantId);
    const inv =
      t.invoices.get(idOrNumber.toLowerCase()) ?? [...t.invoices.values()].find((i) => i.InvoiceNumber === idOrNumber);
    if (!inv) throw new NotFoundError(`no invoice ${idOrNumber}`);
    return inv;
  }

  creditNote(tenantId: string, idOrNumber: string): XeroCreditNote {
    const t = this.tenant(tenantId);
    const cn =
      t.creditNotes.get(idOrNumber.toLowerCase()) ??
      [...t.creditNotes.values()].find((c) => c.CreditNoteNumber === idOrNumber);
    if (!cn) throw new NotFoundError(`no credit note ${idOrNumber}`);
    return cn;
  }

  contact(tenantId: string, id: string): XeroContact {
    const c = this.tenant(tenantId).contacts.get(id.toLowerCase());
    if (!c) throw new NotFoundError(`no contact ${id}`);
    return c;
  }

  /**
   * Records in Xero's own JSON, stored as given (keyed by their lower-cased id, as Xero's ids are matched),
   * replacing any with the same id; returns the ids.
   */
  replay(tenantId: string, entity: XeroReplayEntity, records: readonly XeroRaw[]): string[] {
    const t = this.tenant(tenantId);
    const map = (entity === 'Invoices'
      ? t.invoices
      : entity === 'CreditNotes'
        ? t.creditNotes
        : t.contacts) as unknown as Map<string, XeroRaw>;
    return records.map((r) => {
      const id = String(r[ID_FIELD[entity]]);
      map.set(id.toLowerCase(), r);
      return id;
    });
  }

  /** The organisation and its tax rates in Xero's own JSON, served by GET /Organisation and /TaxRates. */
  replayOrganisation(tenantId: string, organisation: XeroRaw, taxRates?: readonly XeroRaw[]): void {
    const t = this.tenant(tenantId);
    t.organisation = organisation as unknown as XeroOrganisation;
    if (taxRates) t.taxRates = taxRates;
  }

  taxRates(tenantId: string): readonly unknown[] {
    const t = this.tenant(tenantId);
    return t.taxRates ?? t.profile.taxRates;
  }

  /** The organisation's mutation PRNG (seeded: the same changes on every run). */
  rng(tenantId: string): SeededRandom {
    return this.tenant(tenantId).rng;
  }

  /** The instant a change is stamped with. */
  private at(): number {
    return this.fixedAt ?? this.clock.now();
  }

  private emit<T>(tenantId: string, entity: ChangeEntity, op: ChangeOp, id: string, value: T): T {
    this.feed.emit({ entity, op, id, organisation: tenantId, modifiedAt: this.at() });
    return value;
  }

  /** Runs several changes stamped with ONE instant (same-second, even same-millisecond edits). */
  batch<T>(fn: () => T, atMs = this.clock.now()): T {
    const previous = this.fixedAt;
    this.fixedAt = atMs;
    try {
      return fn();
    } finally {
      this.fixedAt = previous;
    }
  }

  createInvoice(tenantId: string, spec: InvoiceCreate = {}): XeroInvoice {
    const t = this.tenant(tenantId);
    const type = spec.type ?? 'ACCREC';
    const contact = spec.contactId
      ? this.contact(tenantId, spec.contactId)
      : t.rng.pick(
          [...t.contacts.values()].filter(
            (c) => (type === 'ACCREC' ? c.IsCustomer : c.IsSupplier) && c.ContactStatus === 'ACTIVE',
          ),
        );
    const currency = spec.currency ?? contact.DefaultCurrency ?? t.profile.baseCurrency;
    const foreign = currency !== t.profile.baseCurrency;
    const day = spec.date ?? utcDay(this.at());
    const existing = [...t.invoices.values()].filter((i) => i.Type === type).length;
    const inv = buildInvoice(t.profile, {
      type,
      id: t.rng.uuid(),
      number:
        type === 'ACCREC'
          ? `${t.profile.invoicePrefix}${String(existing + 1).padStart(4, '0')}`
          : `BILL-${String(existing + 1).padStart(4, '0')}`,
      reference: spec.reference ?? '',
      contact,
      currency,
      currencyRate: currencyRateFor(t.profile, currency, this.convention),
      day,
      dueDay: spec.dueDate ?? utcDay(Date.parse(`${day}T00:00:00Z`) + 30 * 86_400_000),
      types: spec.lineAmountTypes ?? pickLineAmountTypes(t.rng, foreign),
      lines: this.lineSpecs(t, spec.lines, foreign),
      status: spec.status ?? 'AUTHORISED',
      atMs: this.at(),
    });
    t.invoices.set(inv.InvoiceID, inv);
    return this.emit(tenantId, 'invoices', 'create', inv.InvoiceID, inv);
  }

  private lineSpecs(t: TenantState, lines: InvoiceCreate['lines'], foreign: boolean): LineSpec[] {
    return lines
      ? lines.map((l) => ({ ...l, LineItemID: t.rng.uuid() }))
      : generateLineSpecs(t.rng, t.profile, foreign);
  }

  editInvoice(tenantId: string, id: string, changes: InvoiceEdit): XeroInvoice {
    const t = this.tenant(tenantId);
    const inv = this.invoice(tenantId, id);
    if (inv.Status === 'VOIDED' || inv.Status === 'DELETED')
      throw new DocumentRuleError(`A ${inv.Status} invoice cannot be edited`);
    if (changes.lines !== undefined || changes.lineAmountTypes !== undefined) {
      const lines =
        changes.lines === true || changes.lines === undefined
          ? generateLineSpecs(t.rng, t.profile, inv.CurrencyCode !== t.profile.baseCurrency)
          : changes.lines.map((l) => ({ ...l, LineItemID: t.rng.uuid() }));
      replaceInvoiceLines(t.profile, inv, lines, changes.lineAmountTypes ?? inv.LineAmountTypes, this.at());
    }
    if (changes.status !== undefined) {
      if (inv.Status !== 'DRAFT' && inv.Status !== 'SUBMITTED')
        throw new DocumentRuleError(`Invoice is ${inv.Status}; only drafts can be submitted or approved`);
      inv.Status = changes.status;
    }
    if (changes.dueDate !== undefined) {
      const due = Date.parse(`${changes.dueDate}T00:00:00Z`);
      if (Number.isNaN(due)) throw new DocumentRuleError('DueDate is not a valid date');
      inv.DueDate = msDate(due);
      inv.DueDateString = new Date(due).toISOString().slice(0, 19);
    }
    inv.Reference =
      changes.reference ??
      (changes.lines === undefined && changes.dueDate === undefined && changes.status === undefined
        ? `${inv.Reference.replace(/ \(rev \d+\)$/, '')} (rev ${t.rng.int(2, 99)})`.trim()
        : inv.Reference);
    inv.UpdatedDateUTC = msDate(this.at());
    return this.emit(tenantId, 'invoices', 'edit', inv.InvoiceID, inv);
  }

  voidInvoice(tenantId: string, id: string): XeroInvoice {
    const inv = this.invoice(tenantId, id);
    voidDocument(inv, this.at());
    return this.emit(tenantId, 'invoices', 'void', inv.InvoiceID, inv);
  }

  deleteInvoice(tenantId: string, id: string): XeroInvoice {
    const inv = this.invoice(tenantId, id);
    deleteDocument(inv, this.at());
    return this.emit(tenantId, 'invoices', 'delete', inv.InvoiceID, inv);
  }

  payInvoice(tenantId: string, id: string, amount?: number): XeroInvoice {
    const t = this.tenant(tenantId);
    const inv = this.invoice(tenantId, id);
    applyPayment(inv, amount ?? inv.AmountDue, t.rng.uuid(), this.at());
    return this.emit(tenantId, 'invoices', 'edit', inv.InvoiceID, inv);
  }

  createCreditNote(tenantId: string, spec: CreditNoteCreate = {}): XeroCreditNote {
    const t = this.tenant(tenantId);
    const target = spec.allocateTo ? this.invoice(tenantId, spec.allocateTo.invoiceId) : undefined;
    const contact = target
      ? this.contact(tenantId, target.Contact.ContactID)
      : spec.contactId
        ? this.contact(tenantId, spec.contactId)
        : t.rng.pick([...t.contacts.values()].filter((c) => c.IsCustomer && c.ContactStatus === 'ACTIVE'));
    const currency = target?.CurrencyCode ?? spec.currency ?? contact.DefaultCurrency ?? t.profile.baseCurrency;
    const foreign = currency !== t.profile.baseCurrency;
    const count = [...t.creditNotes.values()].length;
    const day = utcDay(this.at());
    const cn = buildCreditNote(t.profile, {
      type: 'ACCRECCREDIT',
      id: t.rng.uuid(),
      number: `${t.profile.creditNotePrefix}${String(count + 1).padStart(4, '0')}`,
      reference: 'Service credit',
      contact,
      currency,
      currencyRate: currencyRateFor(t.profile, currency, this.convention),
      day,
      dueDay: day,
      types: spec.lineAmountTypes ?? pickLineAmountTypes(t.rng, foreign),
      lines: spec.lines
        ? spec.lines.map((l) => ({ ...l, LineItemID: t.rng.uuid() }))
        : generateLineSpecs(t.rng, t.profile, foreign, 1),
      status: spec.status ?? 'AUTHORISED',
      atMs: this.at(),
    });
    t.creditNotes.set(cn.CreditNoteID, cn);
    this.emit(tenantId, 'credit-notes', 'create', cn.CreditNoteID, cn);
    if (target && spec.allocateTo)
      this.allocateCreditNote(tenantId, cn.CreditNoteID, target.InvoiceID, spec.allocateTo.amount);
    return cn;
  }

  allocateCreditNote(tenantId: string, id: string, invoiceId: string, amount?: number): XeroCreditNote {
    const t = this.tenant(tenantId);
    const cn = this.creditNote(tenantId, id);
    const inv = this.invoice(tenantId, invoiceId);
    const value = amount ?? Money.min(cn.RemainingCredit, inv.AmountDue).toNumber();
    allocateCredit(cn, inv, value, t.rng.uuid(), this.at());
    this.emit(tenantId, 'invoices', 'edit', inv.InvoiceID, inv);
    return this.emit(tenantId, 'credit-notes', 'edit', cn.CreditNoteID, cn);
  }

  voidCreditNote(tenantId: string, id: string): XeroCreditNote {
    const cn = this.creditNote(tenantId, id);
    voidDocument(cn, this.at());
    return this.emit(tenantId, 'credit-notes', 'void', cn.CreditNoteID, cn);
  }

  deleteCreditNote(tenantId: string, id: string): XeroCreditNote {
    const cn = this.creditNote(tenantId, id);
    deleteDocument(cn, this.at());
    return this.emit(tenantId, 'credit-notes', 'delete', cn.CreditNoteID, cn);
  }

  editCreditNote(tenantId: string, id: string, reference?: string): XeroCreditNote {
    const cn = this.creditNote(tenantId, id);
    cn.Reference = reference ?? `${cn.Reference} (amended)`.trim();
    cn.UpdatedDateUTC = msDate(this.at());
    return this.emit(tenantId, 'credit-notes', 'edit', cn.CreditNoteID, cn);
  }

  createContact(tenantId: string, spec: ContactSpec = {}): XeroContact {
    const t = this.tenant(tenantId);
    const c = generateContact(t.rng, t.profile, t.rng.uuid(), t.contacts.size + 1, this.at(), spec);
    t.contacts.set(c.ContactID, c);
    return this.emit(tenantId, 'customers', 'create', c.ContactID, c);
  }

  editContact(tenantId: string, id: string, changes: ContactEdit): XeroContact {
    const c = this.contact(tenantId, id);
    if (changes.name !== undefined) c.Name = changes.name;
    if (changes.emailAddress !== undefined) c.EmailAddress = changes.emailAddress;
    if (changes.taxNumber === null) delete c.TaxNumber;
    else if (changes.taxNumber !== undefined) c.TaxNumber = changes.taxNumber;
    if (changes.name === undefined && changes.emailAddress === undefined && changes.taxNumber === undefined) {
      c.EmailAddress = `accounts+${this.tenant(tenantId).rng.hex(4)}@${(c.EmailAddress ?? 'x@example.example').split('@')[1]}`;
    }
    c.UpdatedDateUTC = msDate(this.at());
    if (changes.name !== undefined) this.renameEverywhere(tenantId, c);
    return this.emit(tenantId, 'customers', 'edit', c.ContactID, c);
  }

  /** Xero shows the contact's current name on its documents; the documents' UpdatedDateUTC does not move. */
  private renameEverywhere(tenantId: string, c: XeroContact): void {
    const t = this.tenant(tenantId);
    for (const d of [...t.invoices.values(), ...t.creditNotes.values()])
      if (d.Contact.ContactID === c.ContactID) d.Contact.Name = c.Name;
  }

  archiveContact(tenantId: string, id: string): XeroContact {
    const c = this.contact(tenantId, id);
    c.ContactStatus = 'ARCHIVED';
    c.UpdatedDateUTC = msDate(this.at());
    // Xero contacts are archived, never deleted; its webhook says UPDATE.
    return this.emit(tenantId, 'customers', 'delete', c.ContactID, c);
  }
}
