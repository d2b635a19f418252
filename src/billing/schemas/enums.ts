import { z } from 'zod';

/** invoiceOriginSource, in the interface's order. */
export const ORIGIN_SOURCES = [
  'EXTERNAL_SYSTEM_A',
  'EXTERNAL_SYSTEM_B',
  'EXTERNAL_SYSTEM_C',
  'SERVICE',
  'OTHER',
] as const;
export const OriginSource = z.enum(ORIGIN_SOURCES);
export type OriginSource = z.infer<typeof OriginSource>;

export const LIFECYCLE_STATUSES = ['DRAFT', 'FINALIZED', 'VOIDED', 'DELETED'] as const;
export const LifecycleStatus = z.enum(LIFECYCLE_STATUSES);
export type LifecycleStatus = z.infer<typeof LifecycleStatus>;

export const AcceptanceStatus = z.enum(['PENDING', 'ACCEPTED', 'REJECTED']);
export type AcceptanceStatus = z.infer<typeof AcceptanceStatus>;

export const CustomerStatus = z.enum(['PROSPECT', 'LIVE', 'CHURNED', 'INACTIVE']);
export type CustomerStatus = z.infer<typeof CustomerStatus>;

export const ContractStatus = z.enum(['ACTIVE', 'DRAFT', 'CANCELLED', 'EXPIRED']);
export type ContractStatus = z.infer<typeof ContractStatus>;

export const TaxIdentifierType = z.enum(['GSTIN', 'PAN', 'VAT', 'OTHER']);
export type TaxIdentifierType = z.infer<typeof TaxIdentifierType>;

export const DateType = z.enum(['INVOICE_DATE', 'DUE_DATE', 'PROMISE_TO_PAY_DATE', 'CREATED_AT', 'UPDATED_AT']);
export type DateType = z.infer<typeof DateType>;

export const CustomerSearchType = z.enum(['GSTIN', 'PAN', 'BUYER_ID', 'CUSTOMER_NAME']);
export type CustomerSearchType = z.infer<typeof CustomerSearchType>;

export const InvoiceDateType = z.enum(['INVOICE_DATE', 'DUE_DATE', 'PROMISE_TO_PAY_DATE']);
export const AmountType = z.enum(['TOTAL', 'OUTSTANDING', 'PAID', 'ADJUSTED']);
export type AmountType = z.infer<typeof AmountType>;

export const RoundingType = z.enum(['NEAREST', 'UP', 'DOWN']);
export const RoundingDirection = z.enum(['UP', 'DOWN']);

/** Attachment purposes, numbered 1..20 in the interface. */
export const ATTACHMENT_PURPOSES = [
  'INVOICE_FOR_BUYER',
  'INVOICE_SUPPORTING',
  'PURCHASE_ORDER',
  'SALES_ORDER',
  'DELIVERY_DOCUMENT',
  'PAYMENT_PROOF',
  'DISPUTE',
  'DISPUTE_RESOLUTION',
  'ENQUIRY',
  'ENQUIRY_RESOLUTION',
  'TAX_DOCUMENT',
  'COMMERCIAL_AGREEMENT',
  'COMMERCIAL_AGREEMENT_SUPPORTING',
  'LEGAL',
  'GENERAL',
  'CREDITNOTE_FOR_BUYER',
  'CREDITNOTE_SUPPORTING',
  'TICKET',
  'USAGE_ESTIMATE',
  'MAIL_ATTACHMENT',
] as const;
export const AttachmentPurpose = z.enum(ATTACHMENT_PURPOSES);
export type AttachmentPurpose = z.infer<typeof AttachmentPurpose>;

/**
 * Our decision (interface silent): the invoice record's invoiceStatus and paymentStatus values.
 * See docs/interface-assumptions.md.
 */
export const InvoiceStatus = z.enum(['OPEN', 'OVERDUE', 'CLOSED']);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;
export const PaymentStatus = z.enum(['UNPAID', 'PARTIALLY_PAID', 'PAID']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;
