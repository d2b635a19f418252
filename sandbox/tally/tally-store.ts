import { ChangeFeed, type ChangeEntity, type ChangeOp } from '../kit/change-feed.js';
import { makeGstin, makePan } from '../kit/gstin.js';
import { COMPANY_FIRST, COMPANY_SECOND, COMPANY_SUFFIX, OVERSEAS_COMPANIES, STREETS } from '../kit/sample-names.js';
import { SeededRandom } from '../kit/seeded-random.js';
import type { TallyCompany, TallyInventoryEntry, TallyLedger, TallyLedgerEntry, TallyVoucher } from './tally-model.js';

/**
 * The emulator's books: one GST-registered company in Karnataka with ledgers (customers under Sundry
 * Debtors, output GST ledgers by rate, sales and round-off ledgers) and Sales and Credit Note vouchers.
 *
 * Change tracking as Tally keeps it: every create or alteration gives the object the company's next
 * AlterID (one sequence for masters and vouchers); the company's $AltMstId / $AltVchId are the highest
 * AlterID of a master / a voucher. No object carries a modification time. A delete leaves no trace; a
 * cancelled voucher stays, with ISCANCELLED Yes and no amounts. Generated data is a function of the seed.
 */
export interface GenerateOptions {
  seed: number | string;
  invoices: number;
  creditNotes: number;
  customers: number;
}

export const COMPANY: TallyCompany = {
  name: 'Kaveri Tooling Pvt Ltd',
  stateName: 'Karnataka',
  gstin: makeGstin('29', 'AAKCK4821M'),
  booksFrom: '20250401',
};

const STATES: ReadonlyArray<readonly [string, string]> = [
  ['29', 'Karnataka'],
  ['27', 'Maharashtra'],
  ['33', 'Tamil Nadu'],
  ['07', 'Delhi'],
  ['36', 'Telangana'],
];

/** Items: name, HSN/SAC, unit, price in paise, GST rate, cess rate. */
const ITEMS: ReadonlyArray<readonly [string, string, string, number, number, number]> = [
  ['Carbide End Mill 10mm', '82077010', 'Nos', 1_850_00, 18, 0],
  ['CNC Tool Holder BT40', '84661010', 'Nos', 50_000_00, 18, 0],
  ['Cutting Oil 20L', '27101980', 'Can', 4_250_50, 18, 0],
  ['Safety Gloves', '61161000', 'Pair', 120_00, 5, 0],
  ['Machine Calibration Service', '998713', 'Hrs', 2_500_00, 18, 0],
  ['Coolant Pump Motor', '84137010', 'Nos', 12_999_00, 28, 12],
  ['Tool Steel Bar', '72285010', 'Kg', 389_75, 12, 0],
];

const DUTY = { cgst: 'Central Tax', sgst: 'State Tax', igst: 'Integrated Tax', cess: 'Cess' } as const;
type Duty = keyof typeof DUTY;
const taxLedgerName = (duty: Duty, rate: number) =>
  duty === 'cess' ? `Output Cess ${rate}%` : `Output ${duty.toUpperCase()} ${rate}%`;
export const ROUND_OFF = 'Round Off';
export const SALES = 'Sales GST';
export const EXPORT_SALES = 'Export Sales (LUT)';

const guidOf = (random: SeededRandom) => {
  const hex = () => random.int(0, 0xffff).toString(16).padStart(4, '0');
  return `${hex()}${hex()}-${hex()}-${hex()}-${hex()}-${hex()}${hex()}${hex()}-0000${random.int(1000, 9999)}`;
};
const pad2 = (n: number) => String(n).padStart(2, '0');
/** Rounds half away from zero, in integer paise. */
const roundPaise = (v: number) => Math.sign(v) * Math.round(Math.abs(v));

/**
 * TDS the customer deducts (section 194J, professional and technical services: 10 %), booked on the Sales
 * voucher: the TDS ledger (Duties & Taxes, type of duty TDS) debited with the TDS on the value before GST
 * (CBDT circular 23/2017), the party debited the rest, so the voucher still balances.
 */
const TDS_LEDGER = 'TDS Receivable 194J';
const TDS_RATE = 10;

export class TallyStore {
  readonly company = COMPANY;
  readonly changes = new ChangeFeed();
  private alterSeq = 0;
  private masterSeq = 0;
  private altVchId = 0;
  private altMstId = 0;
  private ledgerList: TallyLedger[] = [];
  private voucherList: TallyVoucher[] = [];
  /** Voucher type masters: the predefined ones the books use (a type's PARENT is its predefined type). */
  private voucherTypeList = ['Sales', 'Credit Note', 'Receipt', 'Journal'].map((name) => ({ name, parent: name }));
  private random: SeededRandom;

  constructor(
    options: GenerateOptions,
    private readonly now: () => number,
  ) {
    this.random = new SeededRandom(options.seed);
    this.generate(options);
  }

  ledgers(): readonly TallyLedger[] {
    return this.ledgerList;
  }
  vouchers(): readonly TallyVoucher[] {
    return this.voucherList;
  }
  voucherTypes(): ReadonlyArray<{ name: string; parent: string }> {
    return this.voucherTypeList;
  }
  /** A company whose books lack a voucher type (a test's: TallyPrime keeps its predefined ones). */
  dropVoucherType(name: string): void {
    this.voucherTypeList = this.voucherTypeList.filter((t) => t.name !== name);
  }
  customers(): TallyLedger[] {
    return this.ledgerList.filter((l) => l.parent === 'Sundry Debtors');
  }
  invoices(): TallyVoucher[] {
    return this.voucherList.filter((v) => v.voucherTypeName === 'Sales');
  }
  creditNotes(): TallyVoucher[] {
    return this.voucherList.filter((v) => v.voucherTypeName === 'Credit Note');
  }
  /** The company's $AltVchId and $AltMstId. */
  alterIds(): { vouchers: number; masters: number } {
    return { vouchers: this.altVchId, masters: this.altMstId };
  }

  private nextAlter(kind: 'voucher' | 'master'): number {
    const id = ++this.alterSeq;
    if (kind === 'voucher') this.altVchId = id;
    else this.altMstId = id;
    return id;
  }

  private emit(entity: ChangeEntity, op: ChangeOp, id: string): void {
    this.changes.emit({ entity, op, id, organisation: this.company.name, modifiedAt: this.now() });
  }

  private addLedger(l: Omit<TallyLedger, 'guid' | 'masterId' | 'alterId'>): TallyLedger {
    const ledger = { guid: guidOf(this.random), masterId: ++this.masterSeq, alterId: this.nextAlter('master'), ...l };
    this.ledgerList.push(ledger);
    return ledger;
  }

  private generate(o: GenerateOptions): void {
    const r = this.random;
    this.addLedger({ name: SALES, parent: 'Sales Accounts' });
    this.addLedger({ name: EXPORT_SALES, parent: 'Sales Accounts' });
    this.addLedger({ name: ROUND_OFF, parent: 'Indirect Expenses' });
    for (const rate of [5, 12, 18, 28]) {
      this.addLedger({
        name: taxLedgerName('cgst', rate / 2),
        parent: 'Duties & Taxes',
        gstDutyHead: DUTY.cgst,
        rateOfTax: rate / 2,
      });
      this.addLedger({
        name: taxLedgerName('sgst', rate / 2),
        parent: 'Duties & Taxes',
        gstDutyHead: DUTY.sgst,
        rateOfTax: rate / 2,
      });
      this.addLedger({
        name: taxLedgerName('igst', rate),
        parent: 'Duties & Taxes',
        gstDutyHead: DUTY.igst,
        rateOfTax: rate,
      });
    }
    this.addLedger({
      name: taxLedgerName('cess', 12),
      parent: 'Duties & Taxes',
      gstDutyHead: DUTY.cess,
      rateOfTax: 12,
    });
    for (let i = 0; i < o.customers; i++) this.addCustomer(i);
    // Every fifth customer is never invoiced (a ledger Tally lets one delete).
    const customers = this.customers().filter((_, i) => i % 5 !== 2);
    const invoices: TallyVoucher[] = [];
    for (let i = 0; i < o.invoices; i++) {
      const day = new Date(Date.UTC(2025, 3, 1) + Math.floor((i * 360) / Math.max(1, o.invoices)) * 86_400_000);
      const date = `${day.getUTCFullYear()}${pad2(day.getUTCMonth() + 1)}${pad2(day.getUTCDate())}`;
      // Each customer at least once, then at random.
      const party = i < customers.length ? customers[i]! : r.pick(customers);
      const v = this.buildSales(party, date, `KT/25-26/${String(i + 1).padStart(4, '0')}`, r.int(1, 3));
      // Every sixth invoice to a GST-registered buyer: the buyer deducts TDS (deterministic: the seed's draws stay).
      if (i % 6 === 4 && v.partyGstin) this.withholdTds(v);
      if (i % 10 === 7) this.cancel(v);
      invoices.push(v);
      this.voucherList.push(v);
    }
    const open = invoices.filter((v) => !v.isCancelled);
    for (let i = 0; i < o.creditNotes && open.length > 0; i++) {
      const against = open[(i * 3) % open.length]!;
      const cn = this.buildCreditNote(against, `CN/25-26/${String(i + 1).padStart(3, '0')}`);
      if (i % 9 === 5) this.cancel(cn);
      this.voucherList.push(cn);
    }
    // Last, so the masters and vouchers above keep the GUIDs and AlterIDs the seed gave them before TDS was added.
    this.addLedger({ name: TDS_LEDGER, parent: 'Duties & Taxes', taxType: 'TDS', rateOfTax: TDS_RATE });
  }

  /** The buyer deducts TDS on the goods' value: a debit to the TDS ledger, the party's debit lowered by as much. */
  private withholdTds(v: TallyVoucher): void {
    const goods = v.inventory.reduce((s, i) => s + i.amountPaise, 0);
    const tds = roundPaise((goods * TDS_RATE) / 100);
    const party = v.ledgers[0]!;
    party.amountPaise += tds;
    party.bills = party.bills?.map((b) => ({ ...b, amountPaise: party.amountPaise }));
    v.ledgers.push({ ledgerName: TDS_LEDGER, amountPaise: -tds });
  }

  private addCustomer(i: number): TallyLedger {
    const r = this.random;
    const overseas = i % 7 === 6;
    if (overseas) {
      const name = `${OVERSEAS_COMPANIES[i % OVERSEAS_COMPANIES.length]!}${i >= OVERSEAS_COMPANIES.length ? ` ${i}` : ''}`;
      return this.addLedger({
        name,
        parent: 'Sundry Debtors',
        mailingName: name,
        address: [`${r.int(10, 999)} Harbor Street`],
        countryName: 'United States of America',
        email: `accounts${i}@example.com`,
        gstRegistrationType: 'Overseas',
      });
    }
    const [code, stateName] = STATES[i % STATES.length]!;
    const name = `${r.pick(COMPANY_FIRST)} ${r.pick(COMPANY_SECOND)} ${r.pick(COMPANY_SUFFIX)} ${i + 1}`;
    const pan = makePan(r, 'C', name[0]);
    const registered = i % 5 !== 4;
    return this.addLedger({
      name,
      parent: 'Sundry Debtors',
      mailingName: name,
      address: [`${r.int(1, 300)}, ${r.pick(STREETS)}`],
      stateName,
      countryName: 'India',
      pincode: String(r.int(110001, 599999)),
      email: `billing${i}@example.in`,
      mobile: `9${r.int(100000000, 999999999)}`,
      incomeTaxNumber: pan,
      ...(registered
        ? { gstin: makeGstin(code, pan), gstRegistrationType: 'Regular' }
        : { gstRegistrationType: 'Unregistered/Consumer' }),
    });
  }

  /** A sales voucher with its GST computed as Tally does: per tax ledger on the ledger's taxable total, then round-off to the rupee. */
  private buildSales(party: TallyLedger, date: string, number: string, lines: number): TallyVoucher {
    const r = this.random;
    const exported = party.countryName !== 'India';
    const inventory: TallyInventoryEntry[] = [];
    for (let i = 0; i < lines; i++) {
      const [stockItemName, hsn, unit, ratePaise, gstRate, cessRate] = r.pick(ITEMS);
      const quantity = r.int(1, 12);
      inventory.push({
        stockItemName,
        hsn,
        unit,
        ratePaise,
        quantity,
        amountPaise: ratePaise * quantity,
        gstRate: exported ? 0 : gstRate,
        cessRate: exported ? 0 : cessRate,
        salesLedger: exported ? EXPORT_SALES : SALES,
      });
    }
    const placeOfSupply = exported ? '' : party.stateName!;
    const ledgers = this.taxLedgers(inventory, placeOfSupply === this.company.stateName, 1);
    ledgers[0]!.ledgerName = party.name;
    const v: TallyVoucher = {
      guid: guidOf(r),
      masterId: ++this.masterSeq,
      alterId: this.nextAlter('voucher'),
      date,
      voucherTypeName: 'Sales',
      voucherNumber: number,
      ...(r.chance(0.4) ? { reference: `PO-${r.int(1000, 9999)}` } : {}),
      narration: `Supply as per order, ${party.name}`,
      partyLedgerName: party.name,
      ...(party.gstin ? { partyGstin: party.gstin } : {}),
      placeOfSupply,
      isCancelled: false,
      inventory,
      ledgers,
    };
    if (party.gstin && r.chance(0.5)) {
      v.irn = Array.from({ length: 64 }, () => r.int(0, 15).toString(16)).join('');
      v.irnAckNo = `1${r.int(10_000_000, 99_999_999)}${r.int(100_000, 999_999)}`;
      v.irnAckDate = date;
    }
    const total = -v.ledgers[0]!.amountPaise;
    v.ledgers[0]!.bills = [{ name: number, billType: 'New Ref', amountPaise: -total }];
    return v;
  }

  /**
   * The ledger entries of an invoice (sign 1) or credit note (sign −1): the party first (debited on an
   * invoice: negative), then each output tax ledger (credited: positive) and round-off.
   */
  private taxLedgers(inventory: TallyInventoryEntry[], intra: boolean, sign: 1 | -1): TallyLedgerEntry[] {
    const byLedger = new Map<string, number>();
    const add = (name: string, paise: number) => byLedger.set(name, (byLedger.get(name) ?? 0) + paise);
    for (const item of inventory) {
      if (item.gstRate > 0) {
        if (intra) {
          add(taxLedgerName('cgst', item.gstRate / 2), (item.amountPaise * item.gstRate) / 2 / 100);
          add(taxLedgerName('sgst', item.gstRate / 2), (item.amountPaise * item.gstRate) / 2 / 100);
        } else add(taxLedgerName('igst', item.gstRate), (item.amountPaise * item.gstRate) / 100);
      }
      if (item.cessRate > 0) add(taxLedgerName('cess', item.cessRate), (item.amountPaise * item.cessRate) / 100);
    }
    const taxes = [...byLedger].map(([ledgerName, v]) => ({ ledgerName, amountPaise: sign * roundPaise(v) }));
    const goods = inventory.reduce((s, i) => s + i.amountPaise, 0);
    const gross = goods + taxes.reduce((s, t) => s + sign * t.amountPaise, 0);
    const rounded = Math.round(gross / 100) * 100;
    const entries: TallyLedgerEntry[] = [{ ledgerName: '', amountPaise: -sign * rounded }, ...taxes];
    if (rounded !== gross) entries.push({ ledgerName: ROUND_OFF, amountPaise: sign * (rounded - gross) });
    return entries;
  }

  private buildCreditNote(against: TallyVoucher, number: string): TallyVoucher {
    const r = this.random;
    const returned = against.inventory.slice(0, 1).map((i) => {
      const quantity = Math.max(1, Math.floor(i.quantity / 2));
      return { ...i, quantity, amountPaise: i.ratePaise * quantity };
    });
    const intra = against.placeOfSupply === this.company.stateName;
    const ledgers = this.taxLedgers(returned, intra, -1);
    ledgers[0]!.ledgerName = against.partyLedgerName;
    ledgers[0]!.bills = [{ name: against.voucherNumber, billType: 'Agst Ref', amountPaise: ledgers[0]!.amountPaise }];
    return {
      guid: guidOf(r),
      masterId: ++this.masterSeq,
      alterId: this.nextAlter('voucher'),
      date: against.date,
      voucherTypeName: 'Credit Note',
      voucherNumber: number,
      reference: against.voucherNumber,
      narration: `Goods returned against ${against.voucherNumber}`,
      partyLedgerName: against.partyLedgerName,
      ...(against.partyGstin ? { partyGstin: against.partyGstin } : {}),
      placeOfSupply: against.placeOfSupply,
      isCancelled: false,
      inventory: returned,
      ledgers,
    };
  }

  /** Tally's cancel: the voucher keeps its number, date and party; its amounts go. */
  private cancel(v: TallyVoucher): void {
    v.isCancelled = true;
    v.inventory = [];
    v.ledgers = [{ ledgerName: v.partyLedgerName, amountPaise: 0 }];
    delete v.irn;
    delete v.irnAckNo;
    delete v.irnAckDate;
  }

  // --- changes (the admin routes and tests make them; each takes the company's next AlterID) ---

  private voucher(guid: string): TallyVoucher {
    const v = this.voucherList.find((x) => x.guid === guid);
    if (!v) throw new StoreError(`no voucher with GUID ${guid}`, 404);
    return v;
  }
  private ledger(guid: string): TallyLedger {
    const l = this.ledgerList.find((x) => x.guid === guid);
    if (!l) throw new StoreError(`no ledger with GUID ${guid}`, 404);
    return l;
  }
  private entityOf(v: TallyVoucher): ChangeEntity {
    return v.voucherTypeName === 'Sales' ? 'invoices' : 'credit-notes';
  }

  /** Alters a voucher's narration (and, with `quantity`, its first line and every amount after it). */
  editVoucher(guid: string, narration: string, options: { bumpQuantity?: boolean } = {}): TallyVoucher {
    const v = this.voucher(guid);
    if (v.isCancelled) throw new StoreError(`voucher ${v.voucherNumber} is cancelled`);
    v.narration = narration;
    if (options.bumpQuantity && v.inventory[0]) {
      const first = v.inventory[0];
      first.quantity += 1;
      first.amountPaise = first.ratePaise * first.quantity;
      const sign = v.voucherTypeName === 'Sales' ? 1 : -1;
      const bills = v.ledgers[0]!.bills;
      const withheld = v.ledgers.some((l) => l.ledgerName === TDS_LEDGER);
      const ledgers = this.taxLedgers(v.inventory, v.placeOfSupply === this.company.stateName, sign);
      ledgers[0]!.ledgerName = v.partyLedgerName;
      v.ledgers = ledgers;
      if (withheld) this.withholdTds(v);
      if (bills) ledgers[0]!.bills = bills.map((b) => ({ ...b, amountPaise: ledgers[0]!.amountPaise }));
    }
    v.alterId = this.nextAlter('voucher');
    this.emit(this.entityOf(v), 'edit', v.guid);
    return v;
  }

  cancelVoucher(guid: string): TallyVoucher {
    const v = this.voucher(guid);
    if (v.isCancelled) throw new StoreError(`voucher ${v.voucherNumber} is already cancelled`);
    this.cancel(v);
    v.alterId = this.nextAlter('voucher');
    this.emit(this.entityOf(v), 'void', v.guid);
    return v;
  }

  deleteVoucher(guid: string): void {
    const v = this.voucher(guid);
    this.voucherList = this.voucherList.filter((x) => x !== v);
    this.emit(this.entityOf(v), 'delete', guid);
  }

  createInvoice(): TallyVoucher {
    const customers = this.customers();
    if (customers.length === 0) throw new StoreError('the company has no Sundry Debtors ledger to invoice');
    const n = this.invoices().length + 1;
    const last = this.invoices().at(-1)?.date ?? this.company.booksFrom;
    const v = this.buildSales(this.random.pick(customers), last, `KT/25-26/${String(n).padStart(4, '0')}-N`, 2);
    this.voucherList.push(v);
    this.emit('invoices', 'create', v.guid);
    return v;
  }

  createCreditNote(): TallyVoucher {
    const open = this.invoices().filter((v) => !v.isCancelled);
    if (open.length === 0) throw new StoreError('no open invoice to credit');
    const cn = this.buildCreditNote(this.random.pick(open), `CN/25-26/${this.creditNotes().length + 1}-N`);
    this.voucherList.push(cn);
    this.emit('credit-notes', 'create', cn.guid);
    return cn;
  }

  createCustomer(): TallyLedger {
    const l = this.addCustomer(this.customers().length);
    this.emit('customers', 'create', l.guid);
    return l;
  }

  editLedger(guid: string, email: string): TallyLedger {
    const l = this.ledger(guid);
    l.email = email;
    l.alterId = this.nextAlter('master');
    this.emit('customers', 'edit', l.guid);
    return l;
  }

  deleteLedger(guid: string): void {
    const l = this.ledger(guid);
    if (this.voucherList.some((v) => v.partyLedgerName === l.name))
      throw new StoreError(`ledger ${l.name} has vouchers; Tally deletes only a ledger without any`);
    this.ledgerList = this.ledgerList.filter((x) => x !== l);
    this.emit('customers', 'delete', guid);
  }
}

export class StoreError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}
