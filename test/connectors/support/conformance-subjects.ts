import type { Redis } from 'ioredis';
import { pino } from 'pino';
import quickbooksConnector from '../../../connectors/quickbooks/index.js';
import tallyConnector from '../../../connectors/tally/index.js';
import xeroConnector from '../../../connectors/xero/index.js';
import zohoConnector from '../../../connectors/zoho-books/index.js';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { startTallyEmulator } from '../../../sandbox/tally/index.js';
import { startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../../sandbox/zoho-books/index.js';
import type { OriginSource } from '../../../src/billing/schemas/index.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import type {
  Connector,
  EntityName,
  MapContext,
  ReadContext,
  SourceRecord,
  Stream,
  SystemName,
} from '../../../src/connector/types.js';
import type { VendorClient } from '../../../src/http/vendor-client.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

/**
 * The table the conformance suite runs over: per connector, how to start its emulator on loopback, how
 * to build the ReadContext a worker would (the real client on a real TokenStore in Redis), and how to
 * change records in the emulator (stamped at an instant the test chooses: the emulators' clocks are
 * frozen, so no test waits for time to pass).
 */

export const silent = pino({ level: 'silent' });

/** Every emulator starts frozen here: after all generated data (2025), on a whole second. */
export const T0 = Date.parse('2026-01-05T10:00:00.000Z');

/** The billing company's base currency the suite maps into (every sandbox organisation is Indian). */
export const BILLING_BASE = 'INR';

export const ENTITIES = ['invoices', 'credit-notes', 'customers'] as const satisfies readonly EntityName[];
export const DOCUMENTS = ['invoices', 'credit-notes'] as const satisfies readonly EntityName[];
export type DocumentEntity = (typeof DOCUMENTS)[number];

/** How many records of each entity an emulator holds (documents and customers), before bills and vendors. */
export interface Size {
  invoices: number;
  creditNotes: number;
  customers: number;
}

/**
 * How the vendor signals that a record was deleted, as its README states:
 * - `deleted-record`: the read returns it with `deleted: true` and the vendor's status;
 * - `id-diff`: the vendor hard-deletes without a feed; the read cannot return it and `listIds` stops listing it;
 * - `status`: the vendor's "delete" is a status (inactive, archived): a live record, never `deleted`.
 */
export type DeleteSignal =
  { kind: 'deleted-record'; status: string } | { kind: 'id-diff' } | { kind: 'status'; status: string };

/** One change the emulator can make: picks (or prepares, before `T0`) a record, then applies it at `atMs`. */
export interface Change {
  prepare(): string;
  apply(id: string, atMs: number): void;
}

/** What a record's raw shape calls the fields the amount and FX checks alter. */
export interface RawFields {
  /**
   * The document total, per document entity: its field, or (a vendor that states no total: Tally, whose
   * total is the party's ledger entry) how to read it and how to move it by an amount.
   */
  total: Record<
    DocumentEntity,
    string | { of(raw: Record<string, unknown>): number; add(raw: Record<string, unknown>, amount: number): void }
  >;
  /** The document currency of a raw invoice. */
  currencyOf(raw: Record<string, unknown>): string | undefined;
  /**
   * The exchange-rate field and what to remove so no rate can be read or derived (the rate and the
   * base-currency totals it could come from); absent where the connector maps base-currency documents
   * only (its README says why).
   */
  fx?: { rate: string; rateSources: readonly string[] };
  /**
   * Puts a row of text with no money, in the vendor's own shape (README "Text lines"), before the
   * document's first line; absent where the vendor's documents have no such row (its README says so).
   */
  addTextLine?(raw: Record<string, unknown>, text: string): void;
  /**
   * Leaves the first priced line without a discount with its amount only (no quantity, no unit price) and
   * returns its id (the billing line's `lineItemId`), or undefined when the document has no such line.
   */
  amountOnly(raw: Record<string, unknown>): string | undefined;
}

type RawLine = Record<string, unknown>;
const linesOf = (raw: Record<string, unknown>, key: string): RawLine[] => raw[key] as RawLine[];
const isZero = (v: unknown) => v === undefined || v === null || Number(v) === 0;

/** The first line `pick` accepts, stripped of `fields`; its id under `idKey`. */
function stripFirst(
  lines: RawLine[],
  pick: (l: RawLine) => boolean,
  fields: readonly string[],
  idKey: string,
  detail?: string,
): string | undefined {
  const line = lines.find(pick);
  if (!line) return undefined;
  const target = detail ? (line[detail] as RawLine) : line;
  for (const f of fields) delete target[f];
  return String(line[idKey]);
}

export interface Running {
  /** A ReadContext as the worker builds it, with this read's upper bound. */
  ctx(options: { until: number; pageSize?: number }): ReadContext;
  /** What the pipeline passes the mapper: the stream's lookups, fetched once per read. */
  mapContext(stream: Stream): Promise<MapContext>;
  /** Moves the (frozen) emulator clock. */
  setClock(ms: number): void;
  /** Ids the vendor holds: live (a full read must return each) and kept as deleted (returned `deleted: true`). */
  held(entity: EntityName): { live: string[]; deleted: string[] };
  /** Ids of records that can be edited (not voided, not deleted). */
  editable(entity: EntityName): string[];
  /** Edits every record in `ids`, each stamped at `atMs` (the vendor's precision: whole seconds or ms). */
  edit(entity: EntityName, ids: readonly string[], atMs: number): void;
  /**
   * The version a read gives the record now, for a vendor that keeps no modification time (Tally: its
   * AlterID); absent: the instant its last edit was stamped at.
   */
  versionOf?(entity: EntityName, id: string): string;
  close(): Promise<void>;
}

export interface Subject {
  system: SystemName;
  /** Folder under connectors/. */
  folder: string;
  connector: Connector<any>;
  originSource: OriginSource;
  /** The status a voided document reads with, per entity the vendor can void (README "Voids and deletes"). */
  voidStatus: Partial<Record<EntityName, string>>;
  deletes: Record<EntityName, DeleteSignal>;
  raw: RawFields;
  /**
   * Files of the shape whose exports the vendor has nothing for (no OAuth, no webhooks: Tally): they
   * export each name as `undefined`, and say why.
   */
  without?: readonly string[];
  /** The fewest settings the connector's schema accepts (no emulator needed). */
  minimalSettings: Record<string, unknown>;
  start(
    size: Size,
  ): Promise<Running & { voids: Partial<Record<EntityName, Change>>; removals: Record<EntityName, Change> }>;
}

/** A TokenStore on the test Redis under a fresh prefix, and its cleanup. */
function tokenStore(name: string): { tokens: TokenStore; close(): Promise<void> } {
  const redis: Redis = connect();
  const prefix = testPrefix(`conformance-${name}`);
  return {
    tokens: new TokenStore(redis, { prefix }),
    async close() {
      await dropPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}

function readContext(connectionId: string, http: VendorClient, settings: unknown, until: number): ReadContext {
  return { connectionId, http, logger: silent, until: new Date(until), settings };
}

async function mapContextFor(
  stream: Stream,
  ctx: ReadContext,
  connectionId: string,
  originSource: OriginSource,
): Promise<MapContext> {
  return {
    connectionId,
    originSource,
    baseCurrency: BILLING_BASE,
    lookups: stream.lookups ? await stream.lookups(ctx) : {},
  };
}

function first<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`the emulator holds no ${what}`);
  return item;
}

const zoho: Subject = {
  system: 'zoho-books',
  folder: 'zoho-books',
  connector: zohoConnector,
  originSource: 'EXTERNAL_SYSTEM_A',
  minimalSettings: { organizationId: '60012345678', clientId: 'id', clientSecret: 'secret' },
  voidStatus: { invoices: 'void', 'credit-notes': 'void' },
  deletes: { invoices: { kind: 'id-diff' }, 'credit-notes': { kind: 'id-diff' }, customers: { kind: 'id-diff' } },
  raw: {
    total: { invoices: 'total', 'credit-notes': 'total' },
    currencyOf: (raw) => (typeof raw.currency_code === 'string' ? raw.currency_code : undefined),
    fx: { rate: 'exchange_rate', rateSources: ['exchange_rate', 'bcy_total'] },
    // A line without an item or a rate (https://www.zoho.com/books/api/v3/invoices/, line_items).
    addTextLine: (raw, text) =>
      void linesOf(raw, 'line_items').unshift({
        line_item_id: '1890000099999001',
        item_id: '',
        name: '',
        description: text,
        quantity: 1,
        rate: 0,
        item_total: 0,
      }),
    amountOnly: (raw) =>
      stripFirst(
        linesOf(raw, 'line_items'),
        (l) => !isZero(l.item_total) && isZero(l.discount_amount) && (isZero(l.discount) || l.discount === '0%'),
        ['quantity', 'rate'],
        'line_item_id',
      ),
  },
  async start(size) {
    // Per-minute and daily limits off: the clock is frozen, so a window would never reopen.
    const emu = await startZohoEmulator({
      records: size.invoices,
      creditNotes: size.creditNotes,
      customers: size.customers,
      ratePerMinute: 0,
      dailyLimit: 0,
      clock: { now: T0, frozen: true },
    });
    const store = emu.store;
    const { tokens, close } = tokenStore('zoho');
    const connectionId = 'conformance-zoho';
    const settingsFor = (pageSize?: number) =>
      zohoConnector.settings.parse({
        organizationId: emu.organizationId,
        clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
        clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
        dataCenter: 'in',
        baseUrl: emu.url,
        lookupsCacheSeconds: 0,
        ...(pageSize ? { pageSize } : {}),
      });
    const http = zohoConnector.createClient({ connectionId, settings: settingsFor(), tokens, logger: silent });
    const customers = () => store.contacts().filter((c) => c.contact_type === 'customer');
    const ids = (entity: EntityName) =>
      entity === 'invoices'
        ? store.invoices().map((i) => i.invoice_id)
        : entity === 'credit-notes'
          ? store.creditNotes().map((c) => c.creditnote_id)
          : customers().map((c) => c.contact_id);
    const at = (atMs: number) => ({ at: atMs });
    return {
      ctx: ({ until, pageSize }) => readContext(connectionId, http, settingsFor(pageSize), until),
      mapContext: (stream) =>
        mapContextFor(stream, readContext(connectionId, http, settingsFor(), T0), connectionId, 'EXTERNAL_SYSTEM_A'),
      setClock: (ms) => void emu.clock.set({ now: ms, frozen: true }),
      held: (entity) => ({ live: ids(entity), deleted: [] }),
      editable: (entity) =>
        entity === 'invoices'
          ? store
              .invoices()
              .filter((i) => i.status !== 'void')
              .map((i) => i.invoice_id)
          : entity === 'credit-notes'
            ? store
                .creditNotes()
                .filter((c) => c.status !== 'void')
                .map((c) => c.creditnote_id)
            : ids(entity),
      edit: (entity, targets, atMs) =>
        void store.mutate(
          targets.map((id) =>
            entity === 'invoices'
              ? { op: 'edit_invoice' as const, invoice_id: id, changes: { notes: `conformance edit at ${atMs}` } }
              : entity === 'credit-notes'
                ? { op: 'touch' as const, entity: 'creditnote' as const, id }
                : { op: 'edit_contact' as const, contact_id: id, changes: { notes: `conformance edit at ${atMs}` } },
          ),
          at(atMs),
        ),
      voids: {
        invoices: {
          prepare: () =>
            first(
              store.invoices().filter((i) => i.status !== 'void' && i.status !== 'draft'),
              'posted invoice',
            ).invoice_id,
          apply: (id, atMs) => void store.mutate([{ op: 'void_invoice', invoice_id: id, force: true }], at(atMs)),
        },
        'credit-notes': {
          prepare: () =>
            first(
              store.creditNotes().filter((c) => c.status !== 'void' && c.status !== 'draft'),
              'open credit note',
            ).creditnote_id,
          apply: (id, atMs) =>
            void store.mutate([{ op: 'void_credit_note', creditnote_id: id, force: true }], at(atMs)),
        },
      },
      removals: {
        invoices: {
          prepare: () => first(store.invoices(), 'invoice').invoice_id,
          apply: (id, atMs) => void store.mutate([{ op: 'delete_invoice', invoice_id: id, force: true }], at(atMs)),
        },
        'credit-notes': {
          prepare: () => first(store.creditNotes(), 'credit note').creditnote_id,
          apply: (id, atMs) =>
            void store.mutate([{ op: 'delete_credit_note', creditnote_id: id, force: true }], at(atMs)),
        },
        customers: {
          // Zoho refuses to delete a contact with transactions: pick one without any.
          prepare: () => {
            const used = new Set([
              ...store.invoices().map((i) => i.customer_id),
              ...store.creditNotes().map((c) => c.customer_id),
            ]);
            return first(
              customers().filter((c) => !used.has(c.contact_id)),
              'customer without transactions',
            ).contact_id;
          },
          apply: (id, atMs) => void store.mutate([{ op: 'delete_contact', contact_id: id }], at(atMs)),
        },
      },
      async close() {
        await emu.close();
        await close();
      },
    };
  },
};

const quickbooks: Subject = {
  system: 'quickbooks',
  folder: 'quickbooks',
  connector: quickbooksConnector,
  originSource: 'EXTERNAL_SYSTEM_B',
  minimalSettings: { realmId: '9341453012345678', clientId: 'id', clientSecret: 'secret' },
  // QuickBooks Online cannot void a credit memo (connectors/quickbooks/README.md, "Voids and deletes").
  voidStatus: { invoices: 'voided' },
  deletes: {
    invoices: { kind: 'deleted-record', status: 'Deleted' },
    'credit-notes': { kind: 'deleted-record', status: 'Deleted' },
    customers: { kind: 'status', status: 'inactive' },
  },
  raw: {
    total: { invoices: 'TotalAmt', 'credit-notes': 'TotalAmt' },
    currencyOf: (raw) => {
      const v = (raw.CurrencyRef as { value?: unknown } | undefined)?.value;
      return typeof v === 'string' ? v : undefined;
    },
    fx: { rate: 'ExchangeRate', rateSources: ['ExchangeRate', 'HomeTotalAmt'] },
    // A DescriptionOnly line (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice).
    addTextLine: (raw, text) =>
      void linesOf(raw, 'Line').unshift({
        Id: '9001',
        Description: text,
        DetailType: 'DescriptionOnly',
        DescriptionLineDetail: {},
      }),
    amountOnly: (raw) =>
      stripFirst(
        linesOf(raw, 'Line'),
        (l) => {
          const d = l.SalesItemLineDetail as RawLine | undefined;
          return (
            l.DetailType === 'SalesItemLineDetail' &&
            !isZero(l.Amount) &&
            isZero(d?.DiscountAmt) &&
            isZero(d?.DiscountRate)
          );
        },
        ['Qty', 'UnitPrice'],
        'Id',
        'SalesItemLineDetail',
      ),
  },
  async start(size) {
    const emu = await startQuickBooksEmulator({
      now: new Date(T0).toISOString(),
      frozen: true,
      records: size.invoices,
      creditMemos: size.creditNotes,
      customers: size.customers,
      ratePerMinute: 0,
      maxInFlight: 0,
    });
    const store = emu.store;
    const { tokens, close } = tokenStore('qbo');
    const connectionId = 'conformance-qbo';
    const settingsFor = (pageSize?: number) =>
      quickbooksConnector.settings.parse({
        ...QBO_SANDBOX_DEFAULTS,
        realmId: emu.realmId,
        baseUrl: emu.url,
        tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
        ...(pageSize ? { pageSize } : {}),
      });
    const http = quickbooksConnector.createClient({ connectionId, settings: settingsFor(), tokens, logger: silent });
    const kindOf = (entity: EntityName) => (entity === 'invoices' ? 'Invoice' : 'CreditMemo');
    const ids = (entity: EntityName) =>
      entity === 'customers' ? [...store.customers.keys()] : [...store.docs[kindOf(entity)].keys()];
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      ctx: ({ until, pageSize }) => readContext(connectionId, http, settingsFor(pageSize), until),
      mapContext: (stream) =>
        mapContextFor(stream, readContext(connectionId, http, settingsFor(), T0), connectionId, 'EXTERNAL_SYSTEM_B'),
      setClock: (ms) => void emu.clock.set({ now: ms, frozen: true }),
      held: (entity) => ({
        live: ids(entity),
        deleted:
          entity === 'customers' ? [] : store.deleted.filter((s) => s.entity === kindOf(entity)).map((s) => s.id),
      }),
      editable: (entity) =>
        entity === 'customers'
          ? ids(entity)
          : [...store.docs[kindOf(entity)].values()].filter((d) => !d.voided).map((d) => d.id),
      edit: (entity, targets, atMs) => {
        for (const id of targets) {
          if (entity === 'customers')
            store.editCustomer(id, { email: `conformance-${atMs}@example.com`, at: iso(atMs) });
          else store.editInvoice(id, { privateNote: `conformance edit at ${atMs}`, at: iso(atMs) }, kindOf(entity));
        }
      },
      voids: {
        invoices: {
          prepare: () =>
            first(
              [...store.docs.Invoice.values()].filter((d) => !d.voided),
              'live invoice',
            ).id,
          apply: (id, atMs) => void store.voidInvoice(id, atMs),
        },
      },
      removals: {
        invoices: {
          prepare: () => first([...store.docs.Invoice.keys()], 'invoice'),
          apply: (id, atMs) => void store.deleteDoc('Invoice', id, atMs),
        },
        'credit-notes': {
          prepare: () => first([...store.docs.CreditMemo.keys()], 'credit memo'),
          apply: (id, atMs) => void store.deleteDoc('CreditMemo', id, atMs),
        },
        customers: {
          // QBO "deletes" a customer by making it inactive (README, "Streams").
          prepare: () =>
            first(
              [...store.customers.values()].filter((c) => c.active),
              'active customer',
            ).id,
          apply: (id, atMs) => void store.editCustomer(id, { active: false, at: iso(atMs) }),
        },
      },
      async close() {
        await emu.close();
        await close();
      },
    };
  },
};

const xero: Subject = {
  system: 'xero',
  folder: 'xero',
  connector: xeroConnector,
  originSource: 'EXTERNAL_SYSTEM_C',
  minimalSettings: { tenantId: '0badc0de-0000-4000-8000-000000000000', clientId: 'id', clientSecret: 'secret' },
  voidStatus: { invoices: 'VOIDED', 'credit-notes': 'VOIDED' },
  deletes: {
    invoices: { kind: 'deleted-record', status: 'DELETED' },
    'credit-notes': { kind: 'deleted-record', status: 'DELETED' },
    customers: { kind: 'status', status: 'ARCHIVED' },
  },
  raw: {
    total: { invoices: 'Total', 'credit-notes': 'Total' },
    currencyOf: (raw) => (typeof raw.CurrencyCode === 'string' ? raw.CurrencyCode : undefined),
    fx: { rate: 'CurrencyRate', rateSources: ['CurrencyRate'] },
    // "A line item with just a description" (https://developer.xero.com/documentation/api/accounting/invoices).
    addTextLine: (raw, text) =>
      void linesOf(raw, 'LineItems').unshift({ LineItemID: '0badc0de-0000-4000-8000-00000000e001', Description: text }),
    amountOnly: (raw) =>
      stripFirst(
        linesOf(raw, 'LineItems'),
        (l) => !isZero(l.LineAmount) && isZero(l.DiscountRate) && isZero(l.DiscountAmount),
        ['Quantity', 'UnitAmount'],
        'LineItemID',
      ),
  },
  async start(size) {
    const emu = await startXeroEmulator({
      records: size.invoices,
      creditNotes: size.creditNotes,
      contacts: size.customers,
      ratePerMinute: 0,
      dailyLimit: 0,
      maxConcurrent: 0,
      appRatePerMinute: 0,
      clock: { now: T0, frozen: true },
    });
    const store = emu.store;
    const tenant = emu.tenantIds[0]!; // the Indian organisation (INR)
    const { tokens, close } = tokenStore('xero');
    const connectionId = 'conformance-xero';
    const settingsFor = (pageSize?: number) =>
      xeroConnector.settings.parse({
        clientId: XERO_SANDBOX_DEFAULTS.clientId,
        clientSecret: XERO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: XERO_SANDBOX_DEFAULTS.refreshToken,
        tenantId: tenant,
        baseUrl: emu.apiBase,
        tokenUrl: emu.tokenUrl,
        ...(pageSize ? { pageSize } : {}),
      });
    const http = xeroConnector.createClient({ connectionId, settings: settingsFor(), tokens, logger: silent });
    const documents = (entity: EntityName) =>
      entity === 'invoices'
        ? store.invoices(tenant).filter((i) => i.Type === 'ACCREC')
        : store.creditNotes(tenant).filter((c) => c.Type === 'ACCRECCREDIT');
    const idOf = (d: { InvoiceID: string } | { CreditNoteID: string }) =>
      'InvoiceID' in d ? d.InvoiceID : d.CreditNoteID;
    /** A new sales document for a void or a delete, created before T0 (Xero voids only unpaid AUTHORISED ones, deletes only drafts). */
    const fresh = (entity: EntityName, status: 'DRAFT' | 'AUTHORISED') =>
      store.batch(
        () =>
          entity === 'invoices'
            ? store.createInvoice(tenant, { status, currency: 'INR' }).InvoiceID
            : store.createCreditNote(tenant, { status, currency: 'INR' }).CreditNoteID,
        T0 - 60_000,
      );
    return {
      ctx: ({ until, pageSize }) => readContext(connectionId, http, settingsFor(pageSize), until),
      mapContext: (stream) =>
        mapContextFor(stream, readContext(connectionId, http, settingsFor(), T0), connectionId, 'EXTERNAL_SYSTEM_C'),
      setClock: (ms) => void emu.clock.set({ now: ms, frozen: true }),
      held: (entity) => {
        if (entity === 'customers') return { live: store.contacts(tenant).map((c) => c.ContactID), deleted: [] };
        const docs = documents(entity);
        return {
          live: docs.filter((d) => d.Status !== 'DELETED').map(idOf),
          deleted: docs.filter((d) => d.Status === 'DELETED').map(idOf),
        };
      },
      editable: (entity) =>
        entity === 'customers'
          ? store.contacts(tenant).map((c) => c.ContactID)
          : documents(entity)
              .filter((d) => d.Status !== 'VOIDED' && d.Status !== 'DELETED')
              .map(idOf),
      edit: (entity, targets, atMs) =>
        store.batch(() => {
          for (const id of targets) {
            if (entity === 'invoices') store.editInvoice(tenant, id, { reference: `conformance edit at ${atMs}` });
            else if (entity === 'credit-notes') store.editCreditNote(tenant, id, `conformance edit at ${atMs}`);
            else store.editContact(tenant, id, { emailAddress: `conformance-${atMs}@example.com` });
          }
        }, atMs),
      voids: {
        invoices: {
          prepare: () => fresh('invoices', 'AUTHORISED'),
          apply: (id, atMs) => void store.batch(() => store.voidInvoice(tenant, id), atMs),
        },
        'credit-notes': {
          prepare: () => fresh('credit-notes', 'AUTHORISED'),
          apply: (id, atMs) => void store.batch(() => store.voidCreditNote(tenant, id), atMs),
        },
      },
      removals: {
        invoices: {
          prepare: () => fresh('invoices', 'DRAFT'),
          apply: (id, atMs) => void store.batch(() => store.deleteInvoice(tenant, id), atMs),
        },
        'credit-notes': {
          prepare: () => fresh('credit-notes', 'DRAFT'),
          apply: (id, atMs) => void store.batch(() => store.deleteCreditNote(tenant, id), atMs),
        },
        customers: {
          // Xero contacts are archived, never deleted (README, "Voids and deletes").
          prepare: () =>
            first(
              store.contacts(tenant).filter((c) => c.ContactStatus === 'ACTIVE'),
              'active contact',
            ).ContactID,
          apply: (id, atMs) => void store.batch(() => store.archiveContact(tenant, id), atMs),
        },
      },
      async close() {
        await emu.close();
        await close();
      },
    };
  },
};

/** A Tally voucher's party entry (its total, signed as Tally exports it: see connectors/tally/map/totals.ts). */
function partyEntry(raw: Record<string, unknown>): { AMOUNT: string } {
  const entries = raw['LEDGERENTRIES.LIST'] as Array<{ LEDGERNAME?: string; AMOUNT: string }>;
  return entries.find((e) => e.LEDGERNAME === raw.PARTYLEDGERNAME)!;
}
const tallySign = (raw: Record<string, unknown>) => (raw.VOUCHERTYPENAME === 'Sales' ? 1 : -1);
const tallyTotal = {
  of: (raw: Record<string, unknown>) => -tallySign(raw) * Number(partyEntry(raw).AMOUNT),
  add: (raw: Record<string, unknown>, amount: number) => {
    const entry = partyEntry(raw);
    entry.AMOUNT = (Number(entry.AMOUNT) - tallySign(raw) * amount).toFixed(2);
  },
};

const tally: Subject = {
  system: 'tally',
  folder: 'tally',
  connector: tallyConnector,
  originSource: 'EXTERNAL_SYSTEM_A',
  minimalSettings: { url: 'http://127.0.0.1:9000', company: 'Kaveri Tooling Pvt Ltd' },
  // TallyPrime has no OAuth and sends no webhooks (connectors/tally/README.md).
  without: ['auth.ts', 'authorize.ts', 'webhooks.ts'],
  voidStatus: { invoices: 'cancelled', 'credit-notes': 'cancelled' },
  // Tally deletes leave no trace (README, "Voids and deletes"): reconciliation diffs GUIDs.
  deletes: { invoices: { kind: 'id-diff' }, 'credit-notes': { kind: 'id-diff' }, customers: { kind: 'id-diff' } },
  raw: {
    total: { invoices: tallyTotal, 'credit-notes': tallyTotal },
    // The connector maps INR vouchers only, and Tally's item invoices have no row of text (README).
    currencyOf: () => 'INR',
    amountOnly: (raw) => {
      const lines = raw['ALLINVENTORYENTRIES.LIST'] as RawLine[] | undefined;
      const i = (lines ?? []).findIndex((l) => !isZero(l.AMOUNT));
      if (i < 0) return undefined;
      for (const f of ['RATE', 'ACTUALQTY', 'BILLEDQTY']) delete lines![i]![f];
      return String(i + 1);
    },
  },
  async start(size) {
    const emu = await startTallyEmulator({
      invoices: size.invoices,
      creditNotes: size.creditNotes,
      customers: size.customers,
      clock: { now: T0, frozen: true },
    });
    const connectionId = 'conformance-tally';
    const settingsFor = (pageSize?: number) =>
      tallyConnector.settings.parse({
        url: emu.url,
        company: emu.companyName,
        lookupsCacheSeconds: 0,
        ...(pageSize ? { rangeSize: pageSize } : {}),
      });
    const http = tallyConnector.createClient({
      connectionId,
      settings: settingsFor(),
      tokens: {} as never,
      logger: silent,
    });
    const store = () => emu.store;
    const docs = (entity: EntityName) => (entity === 'invoices' ? store().invoices() : store().creditNotes());
    const ids = (entity: EntityName) =>
      entity === 'customers'
        ? store()
            .customers()
            .map((c) => c.guid)
        : docs(entity).map((v) => v.guid);
    return {
      ctx: ({ until, pageSize }) => readContext(connectionId, http, settingsFor(pageSize), until),
      mapContext: (stream) =>
        mapContextFor(stream, readContext(connectionId, http, settingsFor(), T0), connectionId, 'EXTERNAL_SYSTEM_A'),
      setClock: (ms) => void emu.clock.set({ now: ms, frozen: true }),
      held: (entity) => ({ live: ids(entity), deleted: [] }),
      editable: (entity) =>
        entity === 'customers'
          ? ids(entity)
          : docs(entity)
              .filter((v) => !v.isCancelled)
              .map((v) => v.guid),
      edit: (entity, targets, atMs) => {
        for (const id of targets)
          if (entity === 'customers') store().editLedger(id, `conformance-${atMs}@example.in`);
          else store().editVoucher(id, `conformance edit at ${atMs}`);
      },
      // Tally keeps no modification time: a record's version is its AlterID (connectors/tally/streams/state.ts).
      versionOf: (entity, id) => {
        const alterId =
          entity === 'customers'
            ? store()
                .customers()
                .find((c) => c.guid === id)!.alterId
            : docs(entity).find((v) => v.guid === id)!.alterId;
        return new Date(alterId).toISOString();
      },
      voids: {
        invoices: {
          prepare: () =>
            first(
              docs('invoices').filter((v) => !v.isCancelled),
              'posted invoice',
            ).guid,
          apply: (id) => void store().cancelVoucher(id),
        },
        'credit-notes': {
          prepare: () =>
            first(
              docs('credit-notes').filter((v) => !v.isCancelled),
              'posted credit note',
            ).guid,
          apply: (id) => void store().cancelVoucher(id),
        },
      },
      removals: {
        invoices: {
          prepare: () => first(docs('invoices'), 'invoice').guid,
          apply: (id) => store().deleteVoucher(id),
        },
        'credit-notes': {
          prepare: () => first(docs('credit-notes'), 'credit note').guid,
          apply: (id) => store().deleteVoucher(id),
        },
        customers: {
          // Tally deletes only a ledger no voucher uses.
          prepare: () => {
            const used = new Set(
              store()
                .vouchers()
                .map((v) => v.partyLedgerName),
            );
            return first(
              store()
                .customers()
                .filter((c) => !used.has(c.name)),
              'customer without vouchers',
            ).guid;
          },
          apply: (id) => store().deleteLedger(id),
        },
      },
      close: () => emu.close(),
    };
  },
};

/** The connectors under test, one row each. */
export const SUBJECTS: readonly Subject[] = [zoho, quickbooks, xero, tally];

/** Every page of a read, collected in order. */
export async function readAll(stream: Stream, ctx: ReadContext, state: Record<string, unknown>) {
  const pages: Array<{ records: SourceRecord<Record<string, unknown>>[]; state: { cursor: string | null } }> = [];
  for await (const page of stream.read(ctx, state as never)) pages.push(page as (typeof pages)[number]);
  const records = pages.flatMap((p) => p.records);
  return {
    pages,
    records,
    live: records.filter((r) => !r.deleted),
    deleted: records.filter((r) => r.deleted === true),
  };
}
