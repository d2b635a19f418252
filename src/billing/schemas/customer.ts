import { z } from 'zod';
import { CustomerStatus, TaxIdentifierType } from './enums.js';
import { FlatObject, IsoDate, Num } from './primitives.js';

export const Address = z.strictObject({
  line1: z.string().optional(),
  line2: z.string().optional(),
  state: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  zipCode: z.string().optional(),
});
export type Address = z.infer<typeof Address>;

export const Contact = z.strictObject({
  id: z.string(),
  name: z.string(),
  primaryPhone: z.string(),
  primaryEmail: z.string(),
  role: z.string(),
});
export type Contact = z.infer<typeof Contact>;

export const Owner = z.strictObject({
  id: z.string(),
  name: z.string(),
  primaryPhone: z.string(),
  primaryEmail: z.string(),
  role: z.string().optional(),
  isRegistered: z.boolean().default(false),
});
export type Owner = z.infer<typeof Owner>;

export const TaxIdentifier = z.strictObject({ value: z.string().min(1), type: TaxIdentifierType });
export type TaxIdentifier = z.infer<typeof TaxIdentifier>;

/** CustomerDetails, embedded in the invoice input; also our customer-create body (docs/interface-assumptions.md). */
export const CustomerDetails = z.strictObject({
  buyerId: z.string().min(1),
  taxIdentifiers: z.array(TaxIdentifier).optional(),
  isManuallyCreated: z.boolean().default(true),
  companyId: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
  registeredAddress: Address.optional(),
  addresses: z.array(Address).optional(),
  contactsData: z.array(Contact).optional(),
  ownersData: z.array(Owner).optional(),
  stateCode: z.string().optional(),
  countryCode: z.string().default('IN'),
  country: z.string().optional(),
  primaryPhone: z.string().optional(),
  primaryEmail: z.string().optional(),
  customerContactPerson: z.string().optional(),
  currency: z.string().default('INR'),
  currencyId: z.string().optional(),
  tags: FlatObject.optional(),
  metaData: FlatObject.optional(),
  customerStatus: CustomerStatus.optional(),
  upcomingCustomerStatus: CustomerStatus.optional(),
  upcomingCustomerStatusChangeDate: IsoDate.optional(),
  upcomingCustomerStatusChangeReason: z.string().optional(),
  upcomingCustomerStatusChangeByUserid: z.string().optional(),
  erpId: z.string().optional(),
});
export type CustomerDetails = z.infer<typeof CustomerDetails>;
export type CustomerDetailsInput = z.input<typeof CustomerDetails>;

/** Our decision: POST /external/customer takes the CustomerDetails shape, unwrapped. */
export const CustomerCreateBody = CustomerDetails;
export type CustomerCreateBody = CustomerDetails;

const Str = z.string().nullish();

/** Customer record, as customer search returns it. Tolerant reader: unknown keys pass. */
export const CustomerRecord = z.looseObject({
  id: z.string(),
  buyerId: z.string(),
  companyId: Str,
  name: Str,
  alias: Str,
  registeredAddress: Address.partial().nullish(),
  addresses: z.array(z.looseObject({})).nullish(),
  contacts: z.array(z.looseObject({ id: Str, name: Str, primaryPhone: Str, primaryEmail: Str, role: Str })).nullish(),
  internalStakeholders: z
    .array(
      z.looseObject({
        id: Str,
        name: Str,
        primaryPhone: Str,
        primaryEmail: Str,
        role: Str,
        isRegistered: z.boolean().nullish(),
      }),
    )
    .nullish(),
  taxIdentifiers: z.array(z.looseObject({ value: z.string(), type: z.string() })).nullish(),
  customerContactPerson: Str,
  currency: Str,
  currencyId: Str,
  tags: z.record(z.string(), z.unknown()).nullish(),
  metaData: z.record(z.string(), z.unknown()).nullish(),
  customerStatus: Str,
  upcomingCustomerStatus: Str,
  upcomingCustomerStatusChangeDate: Str,
  upcomingCustomerStatusChangeReason: Str,
  upcomingCustomerStatusChangeByUserid: Str,
  isManuallyCreated: z.boolean().nullish(),
  erpId: Str,
  createdAt: Str,
  updatedAt: Str,
  totalInvoiceAmount: Num.nullish(),
  totalPaidAmount: Num.nullish(),
  totalOutstandingAmount: Num.nullish(),
  totalAdjustedAmount: Num.nullish(),
  overdueAmount: Num.nullish(),
  invoiceCount: Num.nullish(),
  creditNoteCount: Num.nullish(),
  overdueCount: Num.nullish(),
});
export type CustomerRecord = z.infer<typeof CustomerRecord>;
