import { z } from 'zod';
import {
  AcceptanceStatus,
  AmountType,
  AttachmentPurpose,
  ContractStatus,
  CustomerSearchType,
  CustomerStatus,
  DateType,
  InvoiceDateType,
  InvoiceStatus,
  LifecycleStatus,
  OriginSource,
  PaymentStatus,
} from './enums.js';
import { IsoDate } from './primitives.js';

/**
 * Query models. The interface names some parameters (dateType, startDate, endDate, originSource,
 * lifecycleStatuses, createdAtEnd) and describes the rest by purpose; the names below are our
 * decisions, listed in docs/interface-assumptions.md. One schema serves the client (typed input) and
 * the emulator (parsed from a query string with `parseQuery`).
 */

/** Our decision: paging parameters are pageNumber (1-based) and pageSize, default 50, at most 500. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 500;

const Bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);
const Int = z.coerce.number<number | string>().int();
const Amount = z.coerce.number<number | string>().finite();
const list = <T extends z.ZodTypeAny>(item: T) => z.array(item).optional();
/** "key:value" tag filters. */
const TagPair = z.string().regex(/^[^:]+:.*$/, 'expected key:value');

export const Paging = {
  pageNumber: Int.min(1, 'must be 1 or more').default(1),
  pageSize: Int.min(1, 'must be 1 or more')
    .max(PAGE_SIZE_MAX, `must be at most ${PAGE_SIZE_MAX}`)
    .default(PAGE_SIZE_DEFAULT),
};

export const InvoiceListQuery = z
  .strictObject({
    dateType: DateType.optional(),
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    originSource: list(OriginSource),
    lifecycleStatuses: list(LifecycleStatus),
    invoiceStatuses: list(InvoiceStatus),
    paymentStatuses: list(PaymentStatus),
    acceptanceStatuses: list(AcceptanceStatus),
    tags: list(TagPair),
    customerIds: list(z.string().min(1)),
    ownerIds: list(z.string().min(1)),
    buyerIds: list(z.string().min(1)),
    sort: z.enum(['invoiceDate', '-invoiceDate']).optional(),
    amountType: AmountType.optional(),
    minAmount: Amount.optional(),
    maxAmount: Amount.optional(),
    nonZeroAmountOnly: Bool.optional(),
    invoiceNumber: z.string().min(1).optional(),
    invoiceIds: list(z.string().min(1)),
    hasAttachment: Bool.optional(),
    attachmentPurpose: AttachmentPurpose.optional(),
    currencies: list(z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')),
    ...Paging,
  })
  .superRefine((q, ctx) => {
    if ((q.startDate || q.endDate) && !q.dateType) {
      ctx.addIssue({ code: 'custom', path: ['dateType'], message: 'required when startDate or endDate is given' });
    }
    if (q.startDate && q.endDate && q.startDate > q.endDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
    }
    if ((q.minAmount !== undefined || q.maxAmount !== undefined || q.nonZeroAmountOnly) && !q.amountType) {
      ctx.addIssue({
        code: 'custom',
        path: ['amountType'],
        message: 'required with minAmount, maxAmount or nonZeroAmountOnly',
      });
    }
  });
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;
export type InvoiceListParams = z.input<typeof InvoiceListQuery>;

export const CustomerSearchQuery = z
  .strictObject({
    searchType: CustomerSearchType.optional(),
    searchText: z.string().min(1).optional(),
    invoiceStatuses: list(InvoiceStatus),
    paymentStatuses: list(PaymentStatus),
    customerStatuses: list(CustomerStatus),
    includeTags: list(TagPair),
    excludeTags: list(TagPair),
    excludeTagKeys: list(z.string().min(1)),
    ownerId: z.string().min(1).optional(),
    ownerRole: z.string().min(1).optional(),
    excludedOwnerRole: z.string().min(1).optional(),
    contactRole: z.string().min(1).optional(),
    excludedContactRole: z.string().min(1).optional(),
    invoiceDateType: InvoiceDateType.optional(),
    invoiceStartDate: IsoDate.optional(),
    invoiceEndDate: IsoDate.optional(),
    createdAtStart: IsoDate.optional(),
    createdAtEnd: IsoDate.optional(),
    updatedAtStart: IsoDate.optional(),
    updatedAtEnd: IsoDate.optional(),
    currencies: list(z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')),
    ...Paging,
  })
  .superRefine((q, ctx) => {
    if ((q.searchType === undefined) !== (q.searchText === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['searchText'], message: 'searchType and searchText go together' });
    }
    if ((q.invoiceStartDate || q.invoiceEndDate) && !q.invoiceDateType) {
      ctx.addIssue({
        code: 'custom',
        path: ['invoiceDateType'],
        message: 'required with invoiceStartDate or invoiceEndDate',
      });
    }
  });
export type CustomerSearchQuery = z.infer<typeof CustomerSearchQuery>;
export type CustomerSearchParams = z.input<typeof CustomerSearchQuery>;

/** Endpoint 7. Our decision: the invoice is selected by invoiceNumber; upload-date bounds are inclusive days. */
export const AttachmentListQuery = z.strictObject({
  invoiceNumber: z.string().min(1),
  uploadedFrom: IsoDate.optional(),
  uploadedTo: IsoDate.optional(),
  attachmentPurpose: AttachmentPurpose.optional(),
});
export type AttachmentListQuery = z.infer<typeof AttachmentListQuery>;

export const UsageDriverFilterQuery = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
  unit: z.string().min(1).optional(),
  ...Paging,
});
export type UsageDriverFilterQuery = z.infer<typeof UsageDriverFilterQuery>;
export type UsageDriverFilterParams = z.input<typeof UsageDriverFilterQuery>;

const PeriodUnit = z.enum(['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);

export const ContractFilterQuery = z.strictObject({
  customerId: z.string().min(1).optional(),
  buyerId: z.string().min(1).optional(),
  contractDurationValue: Int.min(1).optional(),
  contractDurationUnit: PeriodUnit.optional(),
  billingFrequencyValue: Int.min(1).optional(),
  billingFrequencyUnit: PeriodUnit.optional(),
  nextBillingDateStart: IsoDate.optional(),
  nextBillingDateEnd: IsoDate.optional(),
  status: ContractStatus.optional(),
  ...Paging,
});
export type ContractFilterQuery = z.infer<typeof ContractFilterQuery>;
export type ContractFilterParams = z.input<typeof ContractFilterQuery>;

/** Endpoint 13. Our decision: `contractId` and `includeEmptyTagCombinations` (default true). */
export const FeeComponentRatecardQuery = z.strictObject({
  contractId: z.string().min(1).optional(),
  includeEmptyTagCombinations: Bool.default(true),
});
export type FeeComponentRatecardQuery = z.infer<typeof FeeComponentRatecardQuery>;
export type FeeComponentRatecardParams = z.input<typeof FeeComponentRatecardQuery>;

/** Endpoint 16. Our decision: optional contractId and feeComponentId filters. */
export const ContractFeeComponentRatecardQuery = z.strictObject({
  contractId: z.string().min(1).optional(),
  feeComponentId: z.string().min(1).optional(),
});
export type ContractFeeComponentRatecardQuery = z.infer<typeof ContractFeeComponentRatecardQuery>;
