import { z } from 'zod';

/**
 * Raw Xero shapes, JSON form (https://developer.xero.com/documentation/api/accounting/invoices and the
 * creditnotes, contacts, taxrates and organisation pages beside it; Xero's OpenAPI document
 * https://github.com/XeroAPI/Xero-OpenAPI, xero_accounting.yaml). Permissive: unknown fields pass, almost
 * everything is optional, money is a number or a numeric string (the mappers parse it into decimals), ids
 * are coerced to strings. Only what a stream cannot do without is required: the id and `UpdatedDateUTC`
 * of listed records.
 */
const Num = z.union([z.number(), z.string()]);
const Id = z.union([z.string(), z.number()]).transform(String);
const Str = z.string().nullish();

export const XeroAddress = z.looseObject({
  AddressType: Str,
  AddressLine1: Str,
  AddressLine2: Str,
  AddressLine3: Str,
  AddressLine4: Str,
  City: Str,
  Region: Str,
  PostalCode: Str,
  Country: Str,
  AttentionTo: Str,
});
export type XeroAddress = z.infer<typeof XeroAddress>;

export const XeroPhone = z.looseObject({ PhoneType: Str, PhoneNumber: Str, PhoneAreaCode: Str, PhoneCountryCode: Str });
export type XeroPhone = z.infer<typeof XeroPhone>;

export const XeroContactPerson = z.looseObject({
  FirstName: Str,
  LastName: Str,
  EmailAddress: Str,
  IncludeInEmails: z.boolean().nullish(),
});

/** A contact, full (GET /Contacts) or as the summary embedded in documents. */
export const XeroContact = z.looseObject({
  ContactID: Id,
  ContactNumber: Str,
  AccountNumber: Str,
  ContactStatus: Str,
  Name: Str,
  FirstName: Str,
  LastName: Str,
  EmailAddress: Str,
  TaxNumber: Str,
  Addresses: z.array(XeroAddress).nullish(),
  Phones: z.array(XeroPhone).nullish(),
  ContactPersons: z.array(XeroContactPerson).nullish(),
  IsCustomer: z.boolean().nullish(),
  IsSupplier: z.boolean().nullish(),
  DefaultCurrency: Str,
  SalesTrackingCategories: z.array(z.looseObject({ TrackingCategoryName: Str, TrackingOptionName: Str })).nullish(),
  MergedToContactID: Str,
  UpdatedDateUTC: Str,
});
export type XeroContact = z.infer<typeof XeroContact>;

export const XeroLineItem = z.looseObject({
  LineItemID: Id.nullish(),
  Description: Str,
  Quantity: Num.nullish(),
  UnitAmount: Num.nullish(),
  ItemCode: Str,
  Item: z.looseObject({ ItemID: Id.nullish(), Code: Str, Name: Str }).nullish(),
  AccountCode: Str,
  TaxType: Str,
  TaxAmount: Num.nullish(),
  LineAmount: Num.nullish(),
  DiscountRate: Num.nullish(),
  DiscountAmount: Num.nullish(),
  Tracking: z
    .array(z.looseObject({ TrackingCategoryID: Str, TrackingOptionID: Str, Name: Str, Option: Str }))
    .nullish(),
});
export type XeroLineItem = z.infer<typeof XeroLineItem>;

const documentFields = {
  Reference: Str,
  Contact: XeroContact.nullish(),
  Date: Str,
  DateString: Str,
  DueDate: Str,
  DueDateString: Str,
  Status: z.string(),
  LineAmountTypes: Str,
  LineItems: z.array(XeroLineItem).nullish(),
  SubTotal: Num.nullish(),
  TotalTax: Num.nullish(),
  Total: Num.nullish(),
  CurrencyCode: Str,
  CurrencyRate: Num.nullish(),
  UpdatedDateUTC: z.string(),
};

export const XeroInvoice = z.looseObject({
  Type: z.string(),
  InvoiceID: Id,
  InvoiceNumber: Str,
  ...documentFields,
  TotalDiscount: Num.nullish(),
  ExpectedPaymentDate: Str,
  AmountDue: Num.nullish(),
  AmountPaid: Num.nullish(),
  AmountCredited: Num.nullish(),
});
export type XeroInvoice = z.infer<typeof XeroInvoice>;

export const XeroAllocation = z.looseObject({
  Amount: Num.nullish(),
  Date: Str,
  Invoice: z.looseObject({ InvoiceID: Id, InvoiceNumber: Str }).nullish(),
  IsDeleted: z.boolean().nullish(),
});

export const XeroCreditNote = z.looseObject({
  Type: z.string(),
  CreditNoteID: Id,
  CreditNoteNumber: Str,
  ...documentFields,
  RemainingCredit: Num.nullish(),
  AppliedAmount: Num.nullish(),
  Allocations: z.array(XeroAllocation).nullish(),
  Payments: z.array(z.looseObject({ Amount: Num.nullish(), Status: Str })).nullish(),
});
export type XeroCreditNote = z.infer<typeof XeroCreditNote>;

/** A contact as listed (its UpdatedDateUTC is the cursor). */
export const XeroListedContact = XeroContact.extend({ UpdatedDateUTC: z.string() });
export type XeroListedContact = z.infer<typeof XeroListedContact>;

export const XeroPagination = z.looseObject({
  page: z.coerce.number(),
  pageSize: z.coerce.number(),
  pageCount: z.coerce.number(),
  itemCount: z.coerce.number(),
});

export const XeroInvoicesResponse = z.looseObject({
  pagination: XeroPagination.nullish(),
  Invoices: z.array(XeroInvoice),
});
export const XeroCreditNotesResponse = z.looseObject({
  pagination: XeroPagination.nullish(),
  CreditNotes: z.array(XeroCreditNote),
});
export const XeroContactsResponse = z.looseObject({
  pagination: XeroPagination.nullish(),
  Contacts: z.array(XeroListedContact),
});

export const XeroTaxRate = z.looseObject({
  Name: z.string(),
  TaxType: z.string(),
  Status: Str,
  EffectiveRate: Num.nullish(),
  DisplayTaxRate: Num.nullish(),
  TaxComponents: z.array(z.looseObject({ Name: z.string(), Rate: Num, IsCompound: z.boolean().nullish() })).nullish(),
});
export type XeroTaxRate = z.infer<typeof XeroTaxRate>;
export const XeroTaxRatesResponse = z.looseObject({ TaxRates: z.array(XeroTaxRate) });

export const XeroOrganisation = z.looseObject({
  OrganisationID: Id.nullish(),
  Name: Str,
  BaseCurrency: z.string(),
  CountryCode: Str,
});
export const XeroOrganisationResponse = z.looseObject({ Organisations: z.array(XeroOrganisation).min(1) });

export const XeroTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
  token_type: Str,
  refresh_token: z.string().min(1).optional(),
});

export const XeroConnections = z.array(z.looseObject({ tenantId: z.string(), tenantType: Str, tenantName: Str }));
