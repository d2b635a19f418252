import { Money } from '../kit/minor-units.js';
import { currencyRateFor, type CurrencyRateConvention } from './currency-rate.js';
import {
  allocateCredit,
  applyPayment,
  buildCreditNote,
  buildInvoice,
  deleteDocument,
  voidDocument,
} from './document-ops.js';
import { generateContact } from './generate-contacts.js';
import { generateLineSpecs, pickLineAmountTypes } from './generate-lines.js';
import { SeededRandom } from '../kit/seeded-random.js';
import type { TenantProfile } from './tenants.js';
import { timeline } from './timeline.js';
import { addTracking } from './tracking.js';
import { msDate, parseMsDate, utcDay } from './xero-date.js';
import type { XeroContact, XeroCreditNote, XeroInvoice, XeroOrganisation } from './xero-records.js';

/**
 * The seeded data set: per organisation, contacts (customers, foreign customers, suppliers, archived),
 * invoices (ACCREC and some ACCPAY bills; Exclusive, Inclusive and NoTax; discounts; partial and full
 * payments; VOIDED and DELETED) and credit notes (allocated to invoices, unallocated, voided, deleted).
 * Same seed → same data, byte for byte.
 */
export interface GenerateDataOptions {
  seed: number | string;
  /** Invoices per organisation (bills included). */
  records: number;
  contacts: number;
  creditNotes: number;
  tenants: readonly TenantProfile[];
  /** Latest generated modification instant (ISO). */
  anchor: string;
  /** Spread of the generated history, days before the anchor. */
  days: number;
  convention: CurrencyRateConvention;
}

export interface TenantDataset {
  profile: TenantProfile;
  organisation: XeroOrganisation;
  contacts: XeroContact[];
  invoices: XeroInvoice[];
  creditNotes: XeroCreditNote[];
}

const DAY = 86_400_000;

export function generateData(options: GenerateDataOptions): TenantDataset[] {
  const root = new SeededRandom(String(options.seed));
  const anchorMs = Date.parse(options.anchor);
  return options.tenants.map((profile) => generateTenant(root.fork(profile.tenantId), profile, options, anchorMs));
}

function generateTenant(
  rng: SeededRandom,
  profile: TenantProfile,
  o: GenerateDataOptions,
  anchorMs: number,
): TenantDataset {
  const organisation: XeroOrganisation = {
    OrganisationID: profile.tenantId,
    APIKey: '',
    Name: profile.tenantName,
    LegalName: profile.tenantName,
    ShortCode: profile.shortCode,
    BaseCurrency: profile.baseCurrency,
    CountryCode: profile.countryCode,
    IsDemoCompany: true,
    OrganisationStatus: 'ACTIVE',
    Timezone: profile.countryCode === 'IN' ? 'INDIASTANDARDTIME' : 'AUSEASTERNSTANDARDTIME',
    OrganisationType: 'COMPANY',
    FinancialYearEndDay: profile.countryCode === 'IN' ? 31 : 30,
    FinancialYearEndMonth: profile.countryCode === 'IN' ? 3 : 6,
    CreatedDateUTC: msDate(anchorMs - 400 * DAY),
  };

  const contactRng = rng.fork('contacts');
  const contactTimes = timeline(contactRng, o.contacts, anchorMs - 30 * DAY, o.days);
  const contacts = contactTimes.map((t, i) => {
    const kind = i % 8;
    const foreign = kind === 3 || kind === 6;
    const supplierOnly = kind === 7;
    return generateContact(contactRng, profile, contactRng.uuid(), i + 1, t, {
      foreign,
      supplierOnly,
      archived: !supplierOnly && contactRng.chance(0.1),
      defaultCurrency: foreign ? contactRng.pick(profile.foreignCurrencies)[0] : undefined,
    });
  });
  const customers = contacts.filter((c) => c.IsCustomer);
  const suppliers = contacts.filter((c) => c.IsSupplier);

  const invRng = rng.fork('invoices');
  const invTimes = timeline(invRng, o.records, anchorMs - 5 * DAY, o.days - 10);
  let invNo = 0;
  let billNo = 0;
  const invoices = invTimes.map((createdMs) => {
    const isBill = suppliers.length > 0 && invRng.chance(0.1);
    const contact = invRng.pick(isBill || customers.length === 0 ? suppliers : customers);
    const currency = contact.DefaultCurrency ?? profile.baseCurrency;
    const foreign = currency !== profile.baseCurrency;
    const outcome = invRng.weighted([
      ['DRAFT', 10],
      ['SUBMITTED', 5],
      ['AUTHORISED', 40],
      ['PARTIAL', 12],
      ['PAID', 20],
      ['VOIDED', 7],
      ['DELETED', 6],
    ] as const);
    const day = utcDay(createdMs - invRng.int(0, 3) * DAY);
    const inv = buildInvoice(profile, {
      type: isBill ? 'ACCPAY' : 'ACCREC',
      id: invRng.uuid(),
      number: isBill
        ? `BILL-${String(++billNo).padStart(4, '0')}`
        : `${profile.invoicePrefix}${String(++invNo).padStart(4, '0')}`,
      reference: invRng.chance(0.6) ? `PO-${invRng.int(1000, 9999)}` : '',
      contact,
      currency,
      currencyRate: currencyRateFor(profile, currency, o.convention),
      day,
      dueDay: utcDay(Date.parse(`${day}T00:00:00Z`) + invRng.pick([15, 30, 45]) * DAY),
      types: pickLineAmountTypes(invRng, foreign),
      lines: generateLineSpecs(invRng, profile, foreign),
      status:
        outcome === 'DRAFT' || outcome === 'DELETED' ? 'DRAFT' : outcome === 'SUBMITTED' ? 'SUBMITTED' : 'AUTHORISED',
      atMs: createdMs,
    });
    const later = Math.min(anchorMs, createdMs + invRng.int(1, 10 * 86_400) * 1000 + invRng.int(0, 999));
    if (outcome === 'PAID' || outcome === 'PARTIAL') {
      const first = outcome === 'PAID' && invRng.chance(0.6) ? inv.Total : portion(inv.Total, invRng);
      if (first > 0) applyPayment(inv, first, invRng.uuid(), later);
      if (outcome === 'PAID' && inv.AmountDue > 0)
        applyPayment(inv, inv.AmountDue, invRng.uuid(), Math.min(anchorMs, later + 86_400_000));
    } else if (outcome === 'VOIDED') voidDocument(inv, later);
    else if (outcome === 'DELETED') deleteDocument(inv, later);
    return inv;
  });

  const cnRng = rng.fork('credit-notes');
  const cnTimes = timeline(cnRng, o.creditNotes, anchorMs, Math.max(1, o.days - 20));
  let cnNo = 0;
  const creditNotes = cnTimes.map((createdMs) => {
    const isBillCredit = suppliers.length > 0 && cnRng.chance(0.1);
    const openInvoices = invoices.filter((i) => i.Type === 'ACCREC' && i.Status === 'AUTHORISED' && i.AmountDue > 0);
    const target = !isBillCredit && openInvoices.length > 0 && cnRng.chance(0.6) ? cnRng.pick(openInvoices) : undefined;
    const contact = target
      ? contacts.find((c) => c.ContactID === target.Contact.ContactID)!
      : cnRng.pick(isBillCredit ? suppliers : customers);
    const currency = target?.CurrencyCode ?? contact.DefaultCurrency ?? profile.baseCurrency;
    const foreign = currency !== profile.baseCurrency;
    const outcome = target
      ? 'ALLOCATED'
      : cnRng.weighted([
          ['AUTHORISED', 4],
          ['VOIDED', 2],
          ['DRAFT', 2],
          ['DELETED', 2],
        ] as const);
    const day = utcDay(createdMs);
    const cn = buildCreditNote(profile, {
      type: isBillCredit ? 'ACCPAYCREDIT' : 'ACCRECCREDIT',
      id: cnRng.uuid(),
      number: `${profile.creditNotePrefix}${String(++cnNo).padStart(4, '0')}`,
      reference: cnRng.pick(['Returned goods', 'Service credit', 'Pricing correction', '']),
      contact,
      currency,
      currencyRate: currencyRateFor(profile, currency, o.convention),
      day,
      dueDay: day,
      types: pickLineAmountTypes(cnRng, foreign),
      lines: generateLineSpecs(cnRng, profile, foreign, cnRng.int(1, 2)),
      status: outcome === 'DRAFT' || outcome === 'DELETED' ? 'DRAFT' : 'AUTHORISED',
      atMs: createdMs,
    });
    if (target) {
      const at = Math.max(createdMs, parseMsDate(target.UpdatedDateUTC) ?? 0) + cnRng.int(1, 5_000);
      const max = Money.min(cn.RemainingCredit, target.AmountDue);
      const amount = cnRng.chance(0.5) ? max.toNumber() : portion(max.toNumber(), cnRng);
      if (amount > 0) allocateCredit(cn, target, amount, cnRng.uuid(), at);
    } else if (outcome === 'VOIDED') voidDocument(cn, createdMs + cnRng.int(1, 86_400) * 1000);
    else if (outcome === 'DELETED') deleteDocument(cn, createdMs + cnRng.int(1, 86_400) * 1000);
    return cn;
  });
  addTracking(rng.fork('tracking'), invoices, creditNotes, contacts);
  return { profile, organisation, contacts, invoices, creditNotes };
}

/** 20–80 % of an amount, rounded down to whole currency units (a realistic part payment). */
function portion(total: number, rng: SeededRandom): number {
  return new Money(total).times(rng.int(20, 80)).div(100).floor().toNumber();
}
