import { z } from 'zod';
import { ContractStatus } from './enums.js';
import { IsoDate, Num } from './primitives.js';

/**
 * Records of the billing-setup endpoints. The interface lists their fields but not their types
 * ("not shown"); these are the types our emulator produces, read tolerantly (every field but `id`
 * optional, unknown keys pass) so a real service's richer shapes still parse.
 */
const Str = z.string().nullish();
const Any = z.unknown().optional();
const Period = z.looseObject({ value: Num, unit: z.string() }).nullish();

export const ContractRecord = z.looseObject({
  id: z.string(),
  customerId: Str,
  contractNumber: Str,
  contractTitle: Str,
  contractPeriod: Period,
  renewalPeriod: Period,
  noteContract: Str,
  billingFrequency: Period,
  usageBillingCycle: Any,
  estimateCycle: Any,
  billingTime: Str,
  startDate: IsoDate.nullish(),
  virtualStartDate: IsoDate.nullish(),
  endDate: IsoDate.nullish(),
  nextBillingDate: IsoDate.nullish(),
  billingDiscounts: Any,
  isPreusage: z.boolean().nullish(),
  billingReportLimit: Any,
  contractLimit: Any,
  creditTermId: Str,
  poNumber: Str,
  placeOfSupply: Str,
  billingAddress: Any,
  shippingAddress: Any,
  totalInvoicedAmount: Num.nullish(),
  noteInvoice: Str,
  terms: Any,
  advanceConfig: Any,
  invoiceSplitConfig: Any,
  gstin: Str,
  companyGstin: Str,
  currency: Str,
  currencyId: Str,
  companyId: Str,
  createdBy: Any,
  updatedBy: Any,
  status: z.union([ContractStatus, z.string()]).nullish(),
  autoRenew: z.boolean().nullish(),
});
export type ContractRecord = z.infer<typeof ContractRecord>;

export const RatecardRecord = z.looseObject({
  id: z.string(),
  name: Str,
  ratecardDescription: Str,
  feeComponentId: Str,
  description: Str,
  ratecardDetail: Any,
  tags: z.record(z.string(), z.unknown()).nullish(),
  companyId: Str,
  contractId: Str,
  currency: Str,
  currencyId: Str,
  createdBy: Any,
  isDefault: z.boolean().nullish(),
  status: Str,
  isTierSplitEnabled: z.boolean().nullish(),
  startDate: IsoDate.nullish(),
  endDate: IsoDate.nullish(),
  fallBackRatecardId: Str,
});
export type RatecardRecord = z.infer<typeof RatecardRecord>;

export const FeeComponentTagRecord = z.looseObject({
  id: z.string(),
  name: Str,
  values: z.array(z.string()).nullish(),
  feeComponentId: Str,
  status: Str,
  companyId: Str,
  createdBy: Any,
});
export type FeeComponentTagRecord = z.infer<typeof FeeComponentTagRecord>;

export const ContractFeeComponentRatecardRecord = z.looseObject({
  id: z.string(),
  contractId: Str,
  feeComponentId: Str,
  ratecardId: Str,
  tags: z.record(z.string(), z.unknown()).nullish(),
  createdBy: Any,
  status: Str,
  companyId: Str,
});
export type ContractFeeComponentRatecardRecord = z.infer<typeof ContractFeeComponentRatecardRecord>;

/** Endpoint 13's data: tags (object) and ratecards. */
export const FeeComponentRatecards = z.looseObject({
  tags: z.record(z.string(), z.unknown()),
  ratecards: z.array(RatecardRecord),
});
export type FeeComponentRatecards = z.infer<typeof FeeComponentRatecards>;

/** Usage driver input. Our decision: name, description, unit required; `productId` optional. */
export const UsageDriverInput = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  unit: z.string().min(1),
  productId: z.string().min(1).optional(),
});
export type UsageDriverInput = z.infer<typeof UsageDriverInput>;

export const UsageDriverRecord = z.looseObject({
  id: z.string(),
  name: Str,
  description: Str,
  unit: Str,
  productId: Str,
  companyId: Str,
  createdAt: Str,
});
export type UsageDriverRecord = z.infer<typeof UsageDriverRecord>;

export const IdData = z.looseObject({ id: z.string() });

export const AddFeeComponentBody = z.strictObject({
  feeComponentId: z.string().min(1),
  contractId: z.string().min(1),
});
export type AddFeeComponentBody = z.infer<typeof AddFeeComponentBody>;

export const SelectRatecardsBody = z.strictObject({
  feeComponentId: z.string().min(1),
  ratecardRelations: z.array(z.strictObject({ ratecardId: z.string().min(1) })).min(1),
});
export type SelectRatecardsBody = z.infer<typeof SelectRatecardsBody>;
