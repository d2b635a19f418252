import { z } from 'zod';

/**
 * Raw QuickBooks Online v3 shapes (field names and types from Intuit's schema, Finance.xsd in
 * https://github.com/intuit/QuickBooks-V3-Java-SDK, ipp-v3-java-data/src/main/xsd), permissive on purpose:
 * loose objects (unknown keys pass), optional fields, ids coerced to strings, amounts kept as the vendor
 * sent them (number or numeric string) for `parseAmount` to read as decimals. The mappers parse a record
 * with these and return a typed quarantine reason when it does not fit; a page never fails because one
 * record is odd (the page schema below needs only what the cursor needs).
 */

/** Ids are numeric strings in QBO; some SDKs send numbers. Always strings here (billing ids are strings). */
export const QboId = z.union([z.string(), z.number()]).transform((v) => String(v));
/** An amount as sent: JSON number or numeric string; parsed into a decimal by the mapper. */
export const QboAmount = z.union([z.number(), z.string()]);

export const QboRef = z.looseObject({ value: QboId, name: z.string().optional() });
export type QboRef = z.infer<typeof QboRef>;

export const QboAddress = z.looseObject({
  Id: QboId.optional(),
  Line1: z.string().optional(),
  Line2: z.string().optional(),
  Line3: z.string().optional(),
  Line4: z.string().optional(),
  Line5: z.string().optional(),
  City: z.string().optional(),
  CountrySubDivisionCode: z.string().optional(),
  PostalCode: z.string().optional(),
  Country: z.string().optional(),
});
export type QboAddress = z.infer<typeof QboAddress>;

export const QboMetaData = z.looseObject({ CreateTime: z.string().optional(), LastUpdatedTime: z.string() });

export const QboSalesItemLineDetail = z.looseObject({
  ItemRef: QboRef.optional(),
  Qty: QboAmount.optional(),
  UnitPrice: QboAmount.optional(),
  TaxCodeRef: QboRef.optional(),
  DiscountRate: QboAmount.optional(),
  DiscountAmt: QboAmount.optional(),
  TaxInclusiveAmt: QboAmount.optional(),
  ServiceDate: z.string().optional(),
  ClassRef: QboRef.optional(),
});

export const QboDiscountLineDetail = z.looseObject({
  PercentBased: z.boolean().optional(),
  DiscountPercent: QboAmount.optional(),
  DiscountAccountRef: QboRef.optional(),
});

/** One `Line[]` entry; `DetailType` says which detail object is present. Group lines nest `Line[]`. */
export const QboLine = z.looseObject({
  Id: QboId.optional(),
  LineNum: z.number().optional(),
  Description: z.string().optional(),
  Amount: QboAmount.optional(),
  DetailType: z.string(),
  SalesItemLineDetail: QboSalesItemLineDetail.optional(),
  DiscountLineDetail: QboDiscountLineDetail.optional(),
  GroupLineDetail: z.looseObject({ Line: z.array(z.unknown()).optional() }).optional(),
});
export type QboLine = z.infer<typeof QboLine>;

export const QboTaxLine = z.looseObject({
  Amount: QboAmount.optional(),
  DetailType: z.string().optional(),
  TaxLineDetail: z
    .looseObject({
      TaxRateRef: QboRef.optional(),
      PercentBased: z.boolean().optional(),
      TaxPercent: QboAmount.optional(),
      NetAmountTaxable: QboAmount.optional(),
    })
    .optional(),
});
export type QboTaxLine = z.infer<typeof QboTaxLine>;

export const QboTxnTaxDetail = z.looseObject({
  TxnTaxCodeRef: QboRef.optional(),
  TotalTax: QboAmount.optional(),
  TaxLine: z.array(QboTaxLine).optional(),
});

export const QboLinkedTxn = z.looseObject({ TxnId: QboId, TxnType: z.string(), TxnLineId: QboId.optional() });
export type QboLinkedTxn = z.infer<typeof QboLinkedTxn>;

export const QboCustomer = z.looseObject({
  Id: QboId,
  SyncToken: QboId.optional(),
  DisplayName: z.string().optional(),
  CompanyName: z.string().optional(),
  GivenName: z.string().optional(),
  MiddleName: z.string().optional(),
  FamilyName: z.string().optional(),
  FullyQualifiedName: z.string().optional(),
  PrimaryEmailAddr: z.looseObject({ Address: z.string().optional() }).optional(),
  PrimaryPhone: z.looseObject({ FreeFormNumber: z.string().optional() }).optional(),
  Mobile: z.looseObject({ FreeFormNumber: z.string().optional() }).optional(),
  BillAddr: QboAddress.optional(),
  ShipAddr: QboAddress.optional(),
  CurrencyRef: QboRef.optional(),
  Balance: QboAmount.optional(),
  /** Absent means active: the default query returns active customers only. */
  Active: z.boolean().optional(),
  /** India edition: GSTIN, PAN (`BusinessNumber`), GST registration type (Finance.xsd, above). */
  GSTIN: z.string().optional(),
  BusinessNumber: z.string().optional(),
  GSTRegistrationType: z.string().optional(),
  PrimaryTaxIdentifier: z.string().optional(),
  Notes: z.string().optional(),
  MetaData: QboMetaData,
});
export type QboCustomer = z.infer<typeof QboCustomer>;

/**
 * A custom field of a sales transaction (Finance.xsd CustomField: DefinitionId, Name, Type and one value
 * by type). Legacy string fields and, with `include=enhancedAllCustomFields`, every field of the company
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started).
 */
export const QboCustomField = z.looseObject({
  DefinitionId: QboId.optional(),
  Name: z.string().optional(),
  Type: z.string().optional(),
  StringValue: z.string().optional(),
  NumberValue: QboAmount.optional(),
  DateValue: z.string().optional(),
  BooleanValue: z.boolean().optional(),
});
export type QboCustomField = z.infer<typeof QboCustomField>;

/** Invoice and CreditMemo share QBO's SalesTransaction shape. */
const salesTransaction = {
  Id: QboId,
  SyncToken: QboId.optional(),
  DocNumber: z.string().optional(),
  TxnDate: z.string().optional(),
  DueDate: z.string().optional(),
  CustomerRef: QboRef.optional(),
  CurrencyRef: QboRef.optional(),
  /**
   * Home-currency units per one foreign unit (home = foreign × rate;
   * https://developer.intuit.com/app/developer/qbo/docs/workflows/manage-multiple-currencies).
   */
  ExchangeRate: QboAmount.optional(),
  GlobalTaxCalculation: z.string().optional(),
  ApplyTaxAfterDiscount: z.boolean().optional(),
  Line: z.array(QboLine).default([]),
  TxnTaxDetail: QboTxnTaxDetail.optional(),
  TotalAmt: QboAmount.optional(),
  HomeTotalAmt: QboAmount.optional(),
  Balance: QboAmount.optional(),
  HomeBalance: QboAmount.optional(),
  LinkedTxn: z.array(QboLinkedTxn).optional(),
  BillAddr: QboAddress.optional(),
  ShipAddr: QboAddress.optional(),
  BillEmail: z.looseObject({ Address: z.string().optional() }).optional(),
  CustomerMemo: z.looseObject({ value: z.string().optional() }).optional(),
  PrivateNote: z.string().optional(),
  ClassRef: QboRef.optional(),
  DepartmentRef: QboRef.optional(),
  CustomField: z.array(QboCustomField).optional(),
  MetaData: QboMetaData,
  /** Added by our stream (not QBO): the customer record of CustomerRef, for customerDetails. */
  _customer: QboCustomer.optional(),
};

export const QboCreditMemo = z.looseObject({
  ...salesTransaction,
  /** Credit not yet applied (Finance.xsd). */
  RemainingCredit: QboAmount.optional(),
  /** The invoice it corrects; required in the IN region (Finance.xsd). */
  InvoiceRef: QboRef.optional(),
});
export type QboCreditMemo = z.infer<typeof QboCreditMemo>;

export const QboInvoice = z.looseObject({
  ...salesTransaction,
  Deposit: QboAmount.optional(),
  /** Added by our stream (not QBO): the credit memos named in this invoice's LinkedTxn. */
  _creditMemos: z.array(QboCreditMemo).optional(),
});
export type QboInvoice = z.infer<typeof QboInvoice>;

/**
 * What paging needs of any record: its id, version counter and timestamps. Rows stay raw otherwise: the
 * mapper validates them, so one odd record fails alone and never the page.
 */
export const QboPagedRow = z.looseObject({
  Id: QboId,
  SyncToken: QboId.optional(),
  MetaData: z.looseObject({ CreateTime: z.string().optional(), LastUpdatedTime: z.string().optional() }),
});
export type QboPagedRow = z.infer<typeof QboPagedRow>;

/** A related record fetched by id (a document's customer, an invoice's credit memos): only its Id is checked here. */
export const QboIdRow = z.looseObject({ Id: QboId });

/** A CDC delete stub: only Id, status, domain and MetaData (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/change-data-capture). */
export const QboDeletedStub = z.looseObject({
  Id: QboId,
  status: z.string().optional(),
  domain: z.string().optional(),
  MetaData: z.looseObject({ LastUpdatedTime: z.string() }),
});
export type QboDeletedStub = z.infer<typeof QboDeletedStub>;

/**
 * `{"QueryResponse": {"<Entity>": [...], "startPosition", "maxResults"}, "time"}`; when nothing matches,
 * `QueryResponse` is `{}` with no entity key and no maxResults
 * (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries).
 */
export function qboQueryResponse<T extends z.ZodTypeAny>(entity: string, item: T) {
  return z.looseObject({
    QueryResponse: z.looseObject({
      [entity]: z.array(item).optional(),
      startPosition: z.number().optional(),
      maxResults: z.number().optional(),
      totalCount: z.number().optional(),
    }),
    time: z.string().optional(),
  });
}

/** Reads the entity list of a parsed query response ([] for the empty `QueryResponse: {}`). */
export function entityRows<T>(response: { QueryResponse: Record<string, unknown> }, entity: string): T[] {
  const rows = response.QueryResponse[entity];
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** `{"CDCResponse":[{"QueryResponse":[{"Invoice":[…],"startPosition","maxResults","totalCount"}, …]}],"time"}` (CDC page above). */
export const QboCdcResponse = z.looseObject({
  CDCResponse: z.array(
    z.looseObject({
      QueryResponse: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
  ),
  time: z.string().optional(),
});
export type QboCdcResponse = z.infer<typeof QboCdcResponse>;

/** A CDC entry: a full record or a delete stub (`status: "Deleted"`). */
export const QboCdcRecord = z.looseObject({
  Id: QboId,
  status: z.string().optional(),
  MetaData: z.looseObject({ LastUpdatedTime: z.string() }),
});
export type QboCdcRecord = z.infer<typeof QboCdcRecord>;

export const QboTaxRate = z.looseObject({
  Id: QboId,
  Name: z.string().optional(),
  Description: z.string().optional(),
  RateValue: QboAmount.optional(),
  AgencyRef: QboRef.optional(),
  Active: z.boolean().optional(),
});
export type QboTaxRate = z.infer<typeof QboTaxRate>;

export const QboTaxCode = z.looseObject({
  Id: QboId,
  Name: z.string().optional(),
  Active: z.boolean().optional(),
  SalesTaxRateList: z
    .looseObject({ TaxRateDetail: z.array(z.looseObject({ TaxRateRef: QboRef.optional() })).optional() })
    .optional(),
});
export type QboTaxCode = z.infer<typeof QboTaxCode>;

export const QboCompanyInfo = z.looseObject({
  Id: QboId.optional(),
  CompanyName: z.string().optional(),
  Country: z.string().optional(),
  CompanyAddr: QboAddress.optional(),
  LegalAddr: QboAddress.optional(),
});
export type QboCompanyInfo = z.infer<typeof QboCompanyInfo>;

export const QboPreferences = z.looseObject({
  CurrencyPrefs: z
    .looseObject({
      MultiCurrencyEnabled: z.boolean().optional(),
      HomeCurrency: QboRef.optional(),
    })
    .optional(),
});
export type QboPreferences = z.infer<typeof QboPreferences>;

/** Token endpoint answer; `refresh_token` is (usually) a new one: persist it (auth.ts). */
export const QboTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1).optional(),
  token_type: z.string().optional(),
  x_refresh_token_expires_in: z.number().optional(),
});
export type QboTokenResponse = z.infer<typeof QboTokenResponse>;
