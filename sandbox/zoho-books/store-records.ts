/**
 * The sandbox's internal records. Money is held in integer minor units and rendered to Zoho's wire shape
 * on every response (see render-*.ts), so every printed amount is derived from one consistent source.
 */
import type { DocumentAmounts } from './document-amounts.js';

export type CurrencyCode = 'INR' | 'USD' | 'EUR';

export interface CurrencyRecord {
  currency_id: string;
  currency_code: CurrencyCode;
  currency_symbol: string;
  currency_name: string;
}

export interface OrganizationRecord {
  organization_id: string;
  name: string;
  contact_name: string;
  email: string;
  /** Minutes east of UTC (Asia/Kolkata = 330): the offset every timestamp is printed in. */
  offsetMinutes: number;
  time_zone: string;
  state_code: string;
  state: string;
  gst_no: string;
  base_currency: CurrencyCode;
  account_created_date: string;
}

export interface AddressRecord {
  attention: string;
  address: string;
  street2: string;
  city: string;
  state: string;
  state_code: string;
  zip: string;
  country: string;
  fax: string;
  phone: string;
}

/** Percent discounts are stored in basis points, amount discounts in minor units. */
export type Discount = { kind: 'percent'; basisPoints: number } | { kind: 'amount'; minor: number };

export interface LineRecord {
  line_item_id: string;
  item_id: string;
  name: string;
  description: string;
  item_order: number;
  hsn_or_sac: string;
  product_type: 'goods' | 'services';
  unit: string;
  /** Quantity × 100 (2.5 hrs = 250). */
  quantityHundredths: number;
  /** Unit price in the document currency, minor units. */
  rateMinor: number;
  discount: Discount | null;
  /** '' = untaxed (export under LUT). */
  tax_id: string;
  /** Credit-note lines remember the invoice line they credit. */
  invoice_id?: string;
  invoice_item_id?: string;
}

/** The amount-bearing part shared by invoices and credit notes. */
export interface DocumentTerms {
  currency_code: CurrencyCode;
  /** Exchange rate × 1e6: base-currency units per one document-currency unit. */
  exchangeRateMicro: number;
  lines: LineRecord[];
  discount_type: 'item_level' | 'entity_level';
  entityDiscount: Discount | null;
  is_discount_before_tax: boolean;
  shippingMinor: number;
  adjustmentMinor: number;
  adjustment_description: string;
}

export interface PaymentRecord {
  payment_id: string;
  date: string;
  amountMinor: number;
  /** India: TDS the customer withheld on this payment (`invoices[].tax_amount_withheld`); settles the invoice too. */
  withheldMinor?: number;
}

/** India e-invoice registration (`einvoice_details`). */
export interface EinvoiceRecord {
  status: 'pushed' | 'cancelled' | 'failed';
  irn: string;
  ackNumber: string;
  /** IST wall clock, "yyyy-MM-dd HH:mm:ss". */
  ackDate: string;
}

/** India: TDS the customer deducts, as stated on the invoice's lines. */
export interface TdsRecord {
  tax_id: string;
  tax_name: string;
  basisPoints: number;
}

export type InvoiceStatus = 'draft' | 'sent' | 'viewed' | 'overdue' | 'partially_paid' | 'paid' | 'void';

export interface InvoiceRecord extends DocumentTerms {
  invoice_id: string;
  invoice_number: string;
  reference_number: string;
  customer_id: string;
  customer_name: string;
  contact_person_ids: string[];
  gst_no: string;
  gst_treatment: string;
  place_of_supply: string;
  date: string;
  due_date: string;
  payment_terms: number;
  payment_terms_label: string;
  status: InvoiceStatus;
  is_viewed_by_client: boolean;
  payments: PaymentRecord[];
  writeOffMinor: number;
  billing_address: AddressRecord;
  shipping_address: AddressRecord;
  notes: string;
  terms: string;
  salesperson_name: string;
  createdMs: number;
  modifiedMs: number;
  /** Cached result of computeDocumentAmounts over the terms above. */
  amounts: DocumentAmounts;
  /** India (generate-india.ts): e-invoice, TDS, reverse charge, reporting tag and custom fields. */
  einvoice?: EinvoiceRecord;
  tds?: TdsRecord;
  /** Reverse charge: the GST the buyer pays (taken out of `amounts`, which then collect none). */
  reverseChargeTaxMinor?: number;
  reportingTag?: { tag_id: string; tag_name: string; tag_option_id: string; tag_option_name: string };
  customFields?: {
    customfield_id: string;
    api_name: string;
    label: string;
    data_type: string;
    value: string | number;
  }[];
}

export interface CreditApplication {
  invoice_id: string;
  invoice_number: string;
  date: string;
  amountMinor: number;
}

export type CreditNoteStatus = 'draft' | 'open' | 'closed' | 'void';

export interface CreditNoteRecord extends DocumentTerms {
  creditnote_id: string;
  creditnote_number: string;
  reference_number: string;
  customer_id: string;
  customer_name: string;
  gst_no: string;
  gst_treatment: string;
  place_of_supply: string;
  date: string;
  status: CreditNoteStatus;
  reason: string;
  applications: CreditApplication[];
  billing_address: AddressRecord;
  shipping_address: AddressRecord;
  createdMs: number;
  modifiedMs: number;
  amounts: DocumentAmounts;
  /** India: the credit note's e-invoice registration (credit notes are e-invoiced like invoices). */
  einvoice?: EinvoiceRecord;
  reportingTag?: { tag_id: string; tag_name: string; tag_option_id: string; tag_option_name: string };
}

export interface ContactPersonRecord {
  contact_person_id: string;
  salutation: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  mobile: string;
  designation: string;
  department: string;
  is_primary_contact: boolean;
}

export interface ContactRecord {
  contact_id: string;
  contact_name: string;
  company_name: string;
  contact_type: 'customer' | 'vendor';
  customer_sub_type: 'business' | 'individual';
  status: 'active' | 'inactive';
  currency_code: CurrencyCode;
  payment_terms: number;
  payment_terms_label: string;
  gst_no: string;
  gst_treatment: string;
  /** 2-letter state code; '' for overseas contacts. */
  place_of_contact: string;
  website: string;
  billing_address: AddressRecord;
  shipping_address: AddressRecord;
  contact_persons: ContactPersonRecord[];
  notes: string;
  createdMs: number;
  modifiedMs: number;
}
