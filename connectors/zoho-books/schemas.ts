import { z } from 'zod';

/**
 * zod schemas of Zoho Books' raw shapes, in two layers (https://www.zoho.com/books/api/v3/invoices/,
 * https://zoho.com/books/api/v3/pagination, and Zoho's OpenAPI for credit notes, contacts and taxes:
 * https://github.com/fordez/zoho-books-mcp-server-openapi/tree/main/mcp_server/openapi-all):
 *
 * - Transport schemas (`Zoho*List`, `Zoho*DetailResponse`) check only what the client and streams rely
 *   on (envelope, ids, cursor field, paging) and let every other key through. A malformed *record* must
 *   not fail the whole response: the mapper judges it and quarantines just that record.
 * - Record schemas (`ZohoInvoice`, `ZohoCreditNote`, `ZohoContact`) are what the mappers read: every
 *   field they use, permissive about types (Zoho prints ids as strings or numbers, amounts as numbers or
 *   numeric strings, and empty strings for absent values). Amounts stay raw here; the mapping core
 *   parses them into decimals.
 */

/** Zoho ids are long numeric strings; the spec sometimes types them as numbers. Always strings here. */
export const ZohoId = z.union([z.string(), z.number()]).transform((v) => String(v));
const OptionalId = ZohoId.nullish();
const Text = z.string().nullish();
/** An amount as sent: number or numeric string; parsed by parseAmount in the mappers. */
const Amount = z.union([z.number(), z.string()]).nullish();
/** Numeric codes that Zoho sometimes prints as numbers (HSN/SAC, zip). */
const Code = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .nullish();

// ---------------------------------------------------------------- transport

export const ZohoPageContext = z.looseObject({
  page: z.number().optional(),
  per_page: z.number().optional(),
  has_more_page: z.boolean().optional(),
});

const Envelope = z.looseObject({ code: z.number(), message: z.string().optional() });

export const ZohoInvoiceRow = z.looseObject({ invoice_id: ZohoId, last_modified_time: Text, status: Text });
export const ZohoCreditNoteRow = z.looseObject({ creditnote_id: ZohoId, last_modified_time: Text, status: Text });
export const ZohoContactRow = z.looseObject({ contact_id: ZohoId, last_modified_time: Text, status: Text });
export type ZohoRow = { last_modified_time?: string | null; status?: string | null } & Record<string, unknown>;

export const ZohoInvoiceList = Envelope.extend({
  invoices: z.array(ZohoInvoiceRow),
  page_context: ZohoPageContext.optional(),
});
export const ZohoCreditNoteList = Envelope.extend({
  creditnotes: z.array(ZohoCreditNoteRow),
  page_context: ZohoPageContext.optional(),
});
export const ZohoContactList = Envelope.extend({
  contacts: z.array(ZohoContactRow),
  page_context: ZohoPageContext.optional(),
});

export const ZohoInvoiceDetailResponse = Envelope.extend({ invoice: z.looseObject({ invoice_id: ZohoId }) });
export const ZohoCreditNoteDetailResponse = Envelope.extend({ creditnote: z.looseObject({ creditnote_id: ZohoId }) });
export const ZohoContactDetailResponse = Envelope.extend({ contact: z.looseObject({ contact_id: ZohoId }) });

export const ZohoOrganization = z.looseObject({
  organization_id: ZohoId,
  name: Text,
  currency_code: z.string(),
  time_zone: Text,
  state_code: Text,
  state: Text,
  gst_no: Text,
  country: Text,
});
export const ZohoOrganizationsResponse = Envelope.extend({ organizations: z.array(ZohoOrganization) });

export const ZohoTax = z.looseObject({
  tax_id: ZohoId,
  tax_name: z.string(),
  tax_percentage: z.union([z.number(), z.string()]),
  tax_type: Text,
  /** India edition: igst | cgst | sgst | nil | cess (empty for groups). */
  tax_specific_type: Text,
});
export const ZohoTaxesResponse = Envelope.extend({ taxes: z.array(ZohoTax), page_context: ZohoPageContext.optional() });
export const ZohoTaxGroupResponse = Envelope.extend({
  tax_group: z.looseObject({ tax_group_id: ZohoId, tax_group_name: Text, taxes: z.array(ZohoTax) }),
});

/** `POST {accounts}/oauth/v2/token`, success shape (failures are 200 + `{error}`, caught by the token error table). */
export const ZohoTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  api_domain: z.string().optional(),
  token_type: z.string().optional(),
});

// ---------------------------------------------------------------- records (what the mappers read)

export const ZohoAddress = z.looseObject({
  attention: Text,
  address: Text,
  street2: Text,
  city: Text,
  state: Text,
  state_code: Text,
  zip: Code,
  country: Text,
  phone: Text,
});
export type ZohoAddress = z.infer<typeof ZohoAddress>;

export const ZohoLineItem = z.looseObject({
  line_item_id: OptionalId,
  item_id: OptionalId,
  name: Text,
  description: Text,
  hsn_or_sac: Code,
  quantity: Amount,
  rate: Amount,
  /** Item-level discount as entered: an amount, or a percentage string such as "10.00%". */
  discount: z.union([z.number(), z.string()]).nullish(),
  /** The item-level discount in money. */
  discount_amount: Amount,
  tax_id: OptionalId,
  tax_name: Text,
  tax_percentage: Amount,
  item_total: Amount,
  /** India: TDS the customer deducts on this line (https://www.zoho.com/books/api/v3/invoices/). */
  tds_tax_id: OptionalId,
  tds_tax_name: Text,
  tds_tax_percentage: Amount,
  tds_tax_amount: Amount,
  /** Credit-note lines: the invoice (and its line) they credit. */
  invoice_id: OptionalId,
});
export type ZohoLineItem = z.infer<typeof ZohoLineItem>;

export const ZohoTaxLine = z.looseObject({ tax_id: OptionalId, tax_name: Text, tax_amount: Amount });
export type ZohoTaxLine = z.infer<typeof ZohoTaxLine>;

/** The amount-bearing fields invoices and credit notes share. */
const DocumentFields = {
  customer_id: OptionalId,
  customer_name: Text,
  currency_id: OptionalId,
  currency_code: z.string().min(1),
  exchange_rate: Amount,
  gst_no: Text,
  gst_treatment: Text,
  place_of_supply: Text,
  is_inclusive_tax: z.boolean().nullish(),
  discount: z.union([z.number(), z.string()]).nullish(),
  discount_type: Text,
  is_discount_before_tax: z.boolean().nullish(),
  discount_amount: Amount,
  discount_percent: Amount,
  line_items: z.array(ZohoLineItem),
  sub_total: Amount,
  taxes: z.array(ZohoTaxLine).nullish(),
  tax_total: Amount,
  shipping_charge: Amount,
  shipping_charge_tax_id: OptionalId,
  adjustment: Amount,
  adjustment_description: Text,
  roundoff_value: Amount,
  total: Amount,
  balance: Amount,
  bcy_total: Amount,
  billing_address: ZohoAddress.nullish(),
  shipping_address: ZohoAddress.nullish(),
  created_time: Text,
  last_modified_time: Text,
  status: Text,
  date: Text,
  reference_number: Text,
};

export const ZohoContactPersonRef = z.looseObject({
  contact_person_id: OptionalId,
  salutation: Text,
  first_name: Text,
  last_name: Text,
  email: Text,
  contact_person_email: Text,
  phone: Text,
  mobile: Text,
  designation: Text,
  is_primary_contact: z.boolean().nullish(),
});
export type ZohoContactPersonRef = z.infer<typeof ZohoContactPersonRef>;

/**
 * India e-invoice registration of a document (`einvoice_details`): `inv_ref_num` is the IRN, `ack_number` and
 * `ack_date` the IRP's acknowledgement, `status` pushed / cancelled / failed …, `qr_link` an image URL that
 * Zoho serves (no signed-QR string). Shape from a capture of a live organisation (see the README).
 */
export const ZohoEinvoiceDetails = z.looseObject({
  inv_ref_num: Text,
  ack_number: Code,
  ack_date: Text,
  status: Text,
  qr_link: Text,
});
export type ZohoEinvoiceDetails = z.infer<typeof ZohoEinvoiceDetails>;

/** A reporting tag on a transaction (`tags[]`). */
export const ZohoReportingTag = z.looseObject({
  tag_id: OptionalId,
  tag_name: Text,
  tag_option_id: OptionalId,
  tag_option_name: Text,
});
export type ZohoReportingTag = z.infer<typeof ZohoReportingTag>;

/** A custom field on a transaction (`custom_fields[]`); `value` as the field's type prints it. */
export const ZohoCustomField = z.looseObject({
  customfield_id: OptionalId,
  api_name: Text,
  label: Text,
  value: z.unknown().optional(),
});
export type ZohoCustomField = z.infer<typeof ZohoCustomField>;

/** One TDS entry of `tds_summary` (per TDS tax). */
export const ZohoTdsSummary = z.looseObject({
  tax_id: OptionalId,
  tax_name: Text,
  tax_percentage: Amount,
  tax_amount: Amount,
});

export const ZohoInvoice = z.looseObject({
  ...DocumentFields,
  invoice_id: ZohoId,
  invoice_number: z.string().min(1),
  due_date: Text,
  contact_persons_associated: z.array(ZohoContactPersonRef).nullish(),
  payment_made: Amount,
  credits_applied: Amount,
  write_off_amount: Amount,
  /** India: TDS the customer withheld when paying; Zoho counts it as settled in `balance`. */
  tax_amount_withheld: Amount,
  tds_summary: z.array(ZohoTdsSummary).nullish(),
  /** India: the supply is under reverse charge; the buyer pays `reverse_charge_tax_total` to the government. */
  is_reverse_charge_applied: z.boolean().nullish(),
  reverse_charge_tax_total: Amount,
  einvoice_details: ZohoEinvoiceDetails.nullish(),
  tags: z.array(ZohoReportingTag).nullish(),
  custom_fields: z.array(ZohoCustomField).nullish(),
  salesperson_id: OptionalId,
  salesperson_name: Text,
  invoice_url: Text,
});
export type ZohoInvoice = z.infer<typeof ZohoInvoice>;

export const ZohoCreditApplication = z.looseObject({ invoice_id: OptionalId, invoice_number: Text, amount: Amount });

export const ZohoCreditNote = z.looseObject({
  ...DocumentFields,
  creditnote_id: ZohoId,
  creditnote_number: z.string().min(1),
  /** The invoices the credit was applied to. */
  invoices: z.array(ZohoCreditApplication).nullish(),
  reason: Text,
  /** The detail's name for last_modified_time. */
  updated_time: Text,
  /** India: a credit note is e-invoiced like an invoice (same shape). */
  einvoice_details: ZohoEinvoiceDetails.nullish(),
  tags: z.array(ZohoReportingTag).nullish(),
  custom_fields: z.array(ZohoCustomField).nullish(),
});
export type ZohoCreditNote = z.infer<typeof ZohoCreditNote>;

/** An invoice or a credit note: the amount-bearing fields they share (DocumentFields). */
export type ZohoDocument = ZohoInvoice | ZohoCreditNote;

export const ZohoContact = z.looseObject({
  contact_id: ZohoId,
  contact_name: z.string().min(1),
  company_name: Text,
  contact_type: Text,
  customer_sub_type: Text,
  status: Text,
  currency_id: OptionalId,
  currency_code: Text,
  email: Text,
  phone: Text,
  mobile: Text,
  gst_no: Text,
  gst_treatment: Text,
  place_of_contact: Text,
  pan_no: Text,
  billing_address: ZohoAddress.nullish(),
  shipping_address: ZohoAddress.nullish(),
  contact_persons: z.array(ZohoContactPersonRef).nullish(),
  last_modified_time: Text,
  tags: z.array(ZohoReportingTag).nullish(),
  custom_fields: z.array(ZohoCustomField).nullish(),
});
export type ZohoContact = z.infer<typeof ZohoContact>;
