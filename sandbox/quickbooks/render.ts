import { computeAmounts } from './compute-amounts.js';
import { type QboCompanyProfile, salesCustomFieldPrefs, TAX_CODES, TAX_RATES } from './catalog.js';
import type { StoredCustomer, StoredDoc } from './model.js';
import { toAmount } from '../kit/minor-units.js';
import { renderTimestamp } from './qbo-time.js';

/**
 * Internal records → the JSON QuickBooks Online v3 returns: references as
 * `{value, name}`, amounts as JSON numbers, MetaData times in the company's offset, `domain: "QBO"`,
 * `SyncToken` as a string. A voided invoice keeps its lines with Qty and Amount 0, and PrivateNote "Voided".
 */
export interface RenderContext {
  offsetMinutes: number;
  homeCurrency: string;
  company: QboCompanyProfile;
  customer(id: string): StoredCustomer | undefined;
}

const CURRENCY_NAMES: Record<string, string> = {
  INR: 'Indian Rupee',
  USD: 'United States Dollar',
  EUR: 'Euro',
  GBP: 'British Pound Sterling',
};

function metaData(createTime: number, lastUpdated: number, rc: RenderContext) {
  return {
    CreateTime: renderTimestamp(createTime, rc.offsetMinutes),
    LastUpdatedTime: renderTimestamp(lastUpdated, rc.offsetMinutes),
  };
}

export function renderDoc(doc: StoredDoc, rc: RenderContext): Record<string, unknown> {
  const a = computeAmounts(doc);
  const customer = rc.customer(doc.customerId);
  const lines: Array<Record<string, unknown>> = doc.lines.map((l, i) => ({
    Id: l.id,
    LineNum: i + 1,
    Description: l.description,
    Amount: toAmount(a.lines[i] ?? 0),
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: {
      ItemRef: { value: l.itemId, name: l.itemName },
      Qty: doc.voided ? 0 : l.qty,
      UnitPrice: toAmount(l.unitPricePaise),
      TaxCodeRef: { value: doc.taxCodeId },
    },
  }));
  doc.notes.forEach((text, i) =>
    lines.push({
      Id: String(doc.lines.length + i + 1),
      LineNum: doc.lines.length + i + 1,
      Description: text,
      DetailType: 'DescriptionOnly',
      DescriptionLineDetail: {},
    }),
  );
  lines.push({ Amount: toAmount(a.subtotal), DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} });
  if (doc.discount && !doc.voided) {
    const percent = 'percentBp' in doc.discount;
    lines.push({
      Id: String(doc.lines.length + doc.notes.length + 1),
      Amount: toAmount(a.discount),
      DetailType: 'DiscountLineDetail',
      DiscountLineDetail: {
        PercentBased: percent,
        ...(percent ? { DiscountPercent: (doc.discount as { percentBp: number }).percentBp / 100 } : {}),
        DiscountAccountRef: { value: '86', name: 'Discounts given' },
      },
    });
  }
  const out: Record<string, unknown> = {
    Id: doc.id,
    SyncToken: String(doc.syncToken),
    domain: 'QBO',
    sparse: false,
    DocNumber: doc.docNumber,
    TxnDate: doc.txnDate,
    ...(doc.dueDate ? { DueDate: doc.dueDate } : {}),
    CustomerRef: { value: doc.customerId, name: customer?.displayName ?? '' },
    CurrencyRef: { value: doc.currency, name: CURRENCY_NAMES[doc.currency] ?? doc.currency },
    ...(doc.exchangeRate ? { ExchangeRate: Number(doc.exchangeRate) } : {}),
    GlobalTaxCalculation: 'TaxExcluded',
    ApplyTaxAfterDiscount: doc.applyTaxAfterDiscount,
    Line: lines,
    TxnTaxDetail: {
      TotalTax: toAmount(a.totalTax),
      ...(a.taxLines.length
        ? {
            TaxLine: a.taxLines.map((t) => ({
              Amount: toAmount(t.amount),
              DetailType: 'TaxLineDetail',
              TaxLineDetail: {
                TaxRateRef: { value: t.rateId },
                PercentBased: true,
                TaxPercent: t.bp / 100,
                NetAmountTaxable: toAmount(t.taxable),
              },
            })),
          }
        : {}),
    },
    TotalAmt: toAmount(a.total),
    ...(a.homeTotal === undefined ? {} : { HomeTotalAmt: toAmount(a.homeTotal) }),
    Balance: toAmount(a.balance),
    ...(a.homeBalance === undefined ? {} : { HomeBalance: toAmount(a.homeBalance) }),
    LinkedTxn: doc.linked.map((l) => ({ ...l })),
    ...(doc.billAddr ? { BillAddr: { ...doc.billAddr } } : {}),
    ...(doc.shipAddr ? { ShipAddr: { ...doc.shipAddr } } : {}),
    ...(doc.billEmail ? { BillEmail: { Address: doc.billEmail } } : {}),
    ...(doc.customerMemo ? { CustomerMemo: { value: doc.customerMemo } } : {}),
    ...(doc.privateNote ? { PrivateNote: doc.privateNote } : {}),
    ...(doc.classRef ? { ClassRef: { ...doc.classRef } } : {}),
    ...(doc.departmentRef ? { DepartmentRef: { ...doc.departmentRef } } : {}),
    ...(doc.customFields?.length ? { CustomField: doc.customFields.map((f) => ({ ...f })) } : {}),
    MetaData: metaData(doc.createTime, doc.lastUpdated, rc),
  };
  if (doc.kind === 'Invoice') {
    out.EmailStatus = 'EmailSent';
    out.PrintStatus = 'NotSet';
  } else {
    out.RemainingCredit = toAmount(a.balance);
    if (doc.invoiceRef) out.InvoiceRef = { value: doc.invoiceRef };
  }
  return out;
}

export function renderCustomer(c: StoredCustomer, rc: RenderContext): Record<string, unknown> {
  return {
    Id: c.id,
    SyncToken: String(c.syncToken),
    domain: 'QBO',
    sparse: false,
    DisplayName: c.displayName,
    CompanyName: c.companyName,
    ...(c.givenName ? { GivenName: c.givenName } : {}),
    ...(c.familyName ? { FamilyName: c.familyName } : {}),
    FullyQualifiedName: c.displayName,
    PrintOnCheckName: c.companyName,
    ...(c.email ? { PrimaryEmailAddr: { Address: c.email } } : {}),
    ...(c.phone ? { PrimaryPhone: { FreeFormNumber: c.phone } } : {}),
    BillAddr: { ...c.billAddr },
    ...(c.shipAddr ? { ShipAddr: { ...c.shipAddr } } : {}),
    ...(rc.company.multiCurrency
      ? { CurrencyRef: { value: c.currency, name: CURRENCY_NAMES[c.currency] ?? c.currency } }
      : {}),
    Balance: 0,
    Taxable: c.gstRegistrationType !== 'OVERSEAS',
    Active: c.active,
    Job: false,
    ...(c.gstin ? { GSTIN: c.gstin } : {}),
    ...(c.pan ? { BusinessNumber: c.pan } : {}),
    GSTRegistrationType: c.gstRegistrationType,
    ...(c.notes ? { Notes: c.notes } : {}),
    MetaData: metaData(c.createTime, c.lastUpdated, rc),
  };
}

/** Reference data never changes in the sandbox: stamped at the company's creation. */
export function renderReference(entity: string, createdAt: number, rc: RenderContext): Array<Record<string, unknown>> {
  const meta = metaData(createdAt, createdAt, rc);
  switch (entity) {
    case 'TaxRate':
      return TAX_RATES.map((r) => ({
        Id: r.id,
        SyncToken: '0',
        Name: r.name,
        Description: r.name,
        Active: true,
        RateValue: r.bp / 100,
        AgencyRef: { value: r.agency.id, name: r.agency.name },
        SpecialTaxType: r.bp === 0 ? 'ZERO_RATE' : 'NONE',
        DisplayType: 'ReadOnly',
        MetaData: meta,
      }));
    case 'TaxCode':
      return TAX_CODES.map((c) => ({
        Id: c.id,
        SyncToken: '0',
        Name: c.name,
        Description: c.name,
        Active: true,
        Taxable: true,
        TaxGroup: c.rateIds.length > 1,
        SalesTaxRateList: {
          TaxRateDetail: c.rateIds.map((id, i) => ({
            TaxRateRef: { value: id, name: TAX_RATES.find((r) => r.id === id)?.name },
            TaxTypeApplicable: 'TaxOnAmount',
            TaxOrder: i,
          })),
        },
        PurchaseTaxRateList: { TaxRateDetail: [] },
        MetaData: meta,
      }));
    case 'CompanyInfo':
      return [
        {
          Id: '1',
          SyncToken: '1',
          CompanyName: rc.company.name,
          LegalName: rc.company.name,
          CompanyAddr: { ...rc.company.address },
          LegalAddr: { ...rc.company.address },
          Country: rc.company.country,
          SupportedLanguages: 'en',
          FiscalYearStartMonth: 'April',
          Email: { Address: 'accounts@sahyadri.example' },
          MetaData: meta,
        },
      ];
    case 'Preferences':
      return [
        {
          Id: '1',
          SyncToken: '1',
          CurrencyPrefs: { MultiCurrencyEnabled: rc.company.multiCurrency, HomeCurrency: { value: rc.homeCurrency } },
          SalesFormsPrefs: { AllowDiscount: true, AllowDeposit: true, CustomField: salesCustomFieldPrefs() },
          TaxPrefs: { UsingSalesTax: true, PartnerTaxEnabled: true },
          MetaData: meta,
        },
      ];
    default:
      return [];
  }
}
