/**
 * The sandbox's records, in Xero's JSON wire shape: PascalCase fields, amounts as
 * JSON numbers (already rounded to the currency; computed in decimals), dates as `/Date(ms+0000)/`.
 * The store keeps them exactly as they are served.
 */
export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';
export type DocumentStatus = 'DRAFT' | 'SUBMITTED' | 'AUTHORISED' | 'PAID' | 'VOIDED' | 'DELETED';
export type ContactStatus = 'ACTIVE' | 'ARCHIVED' | 'GDPRREQUEST';

export interface XeroLineItem {
  LineItemID: string;
  Description: string;
  Quantity: number;
  UnitAmount: number;
  ItemCode?: string;
  AccountCode: string;
  TaxType: string;
  TaxAmount: number;
  LineAmount: number;
  DiscountRate?: number;
  DiscountAmount?: number;
  Tracking: XeroLineTracking[];
}

/** A line's tracking: a category and the option chosen (LineItems.Tracking, at most two per line). */
export interface XeroLineTracking {
  TrackingCategoryID: string;
  TrackingOptionID: string;
  Name: string;
  Option: string;
}

export interface XeroContactSummary {
  ContactID: string;
  Name: string;
  Addresses: unknown[];
  Phones: unknown[];
  ContactGroups: unknown[];
  ContactPersons: unknown[];
  HasValidationErrors: boolean;
}

export interface XeroPayment {
  PaymentID: string;
  Date: string;
  Amount: number;
  CurrencyRate: number;
  HasAccount: boolean;
  HasValidationErrors: boolean;
}

export interface XeroCreditNoteRef {
  CreditNoteID: string;
  CreditNoteNumber: string;
  AppliedAmount: number;
  Date: string;
  Total: number;
}

export interface XeroInvoice {
  Type: 'ACCREC' | 'ACCPAY';
  InvoiceID: string;
  InvoiceNumber: string;
  Reference: string;
  Contact: XeroContactSummary;
  Date: string;
  DateString: string;
  DueDate: string;
  DueDateString: string;
  Status: DocumentStatus;
  LineAmountTypes: LineAmountTypes;
  LineItems: XeroLineItem[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
  TotalDiscount: number;
  CurrencyCode: string;
  CurrencyRate: number;
  AmountDue: number;
  AmountPaid: number;
  AmountCredited: number;
  FullyPaidOnDate?: string;
  /** Sales invoices: the date the customer said they would pay, when one was set. */
  ExpectedPaymentDate?: string;
  Payments: XeroPayment[];
  CreditNotes: XeroCreditNoteRef[];
  Prepayments: unknown[];
  Overpayments: unknown[];
  SentToContact: boolean;
  HasAttachments: boolean;
  IsDiscounted: boolean;
  HasErrors: boolean;
  UpdatedDateUTC: string;
}

export interface XeroAllocation {
  AllocationID: string;
  Amount: number;
  Date: string;
  Invoice: { InvoiceID: string; InvoiceNumber: string };
  IsDeleted: boolean;
}

export interface XeroCreditNote {
  Type: 'ACCRECCREDIT' | 'ACCPAYCREDIT';
  CreditNoteID: string;
  CreditNoteNumber: string;
  Reference: string;
  Contact: XeroContactSummary;
  Date: string;
  DateString: string;
  DueDate: string;
  DueDateString: string;
  Status: DocumentStatus;
  LineAmountTypes: LineAmountTypes;
  LineItems: XeroLineItem[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
  CurrencyCode: string;
  CurrencyRate: number;
  RemainingCredit: number;
  AppliedAmount: number;
  Allocations: XeroAllocation[];
  Payments: XeroPayment[];
  FullyPaidOnDate?: string;
  SentToContact: boolean;
  HasAttachments: boolean;
  HasErrors: boolean;
  UpdatedDateUTC: string;
}

export interface XeroAddress {
  AddressType: 'POBOX' | 'STREET';
  AddressLine1?: string;
  AddressLine2?: string;
  AddressLine3?: string;
  AddressLine4?: string;
  City?: string;
  Region?: string;
  PostalCode?: string;
  Country?: string;
  AttentionTo?: string;
}

export interface XeroPhone {
  PhoneType: 'DEFAULT' | 'DDI' | 'MOBILE' | 'FAX' | 'OFFICE';
  PhoneNumber?: string;
  PhoneAreaCode?: string;
  PhoneCountryCode?: string;
}

export interface XeroContactPerson {
  FirstName: string;
  LastName: string;
  EmailAddress: string;
  IncludeInEmails: boolean;
}

export interface XeroContact {
  ContactID: string;
  ContactNumber?: string;
  AccountNumber?: string;
  ContactStatus: ContactStatus;
  Name: string;
  FirstName?: string;
  LastName?: string;
  CompanyNumber?: string;
  EmailAddress?: string;
  TaxNumber?: string;
  AccountsReceivableTaxType?: string;
  ContactPersons: XeroContactPerson[];
  Addresses: XeroAddress[];
  Phones: XeroPhone[];
  IsSupplier: boolean;
  IsCustomer: boolean;
  DefaultCurrency?: string;
  /** The contact's default sales tracking (category and option names). */
  SalesTrackingCategories?: Array<{ TrackingCategoryName: string; TrackingOptionName: string }>;
  MergedToContactID?: string;
  HasValidationErrors: boolean;
  UpdatedDateUTC: string;
}

export interface XeroOrganisation {
  OrganisationID: string;
  APIKey: string;
  Name: string;
  LegalName: string;
  ShortCode: string;
  BaseCurrency: string;
  CountryCode: string;
  IsDemoCompany: boolean;
  OrganisationStatus: 'ACTIVE';
  Timezone: string;
  OrganisationType: 'COMPANY';
  FinancialYearEndDay: number;
  FinancialYearEndMonth: number;
  CreatedDateUTC: string;
}
