import { z } from 'zod';

/**
 * Tally's objects as streams/answer.ts builds them from the XML answer: fields by Tally's tag names (text,
 * `NAME.LIST` arrays of records). Permissive: unknown fields pass, every field optional except the key.
 * Field names: tally-database-loader's export configuration (https://github.com/dhananjay1405/tally-database-loader)
 * and Tally's integration help (https://help.tallysolutions.com/integration-with-tallyprime/).
 */
const Text = z.string().optional();
const List = <T extends z.ZodType>(item: T) => z.array(item).optional();

export const TallyBillAllocation = z.looseObject({ NAME: Text, BILLTYPE: Text, AMOUNT: Text });
export const TallyLedgerEntry = z.looseObject({
  LEDGERNAME: Text,
  ISDEEMEDPOSITIVE: Text,
  AMOUNT: Text,
  'BILLALLOCATIONS.LIST': List(TallyBillAllocation),
});
export const TallyRateDetail = z.looseObject({ GSTRATEDUTYHEAD: Text, GSTRATE: Text });
export const TallyInventoryEntry = z.looseObject({
  STOCKITEMNAME: Text,
  GSTHSNNAME: Text,
  RATE: Text,
  ACTUALQTY: Text,
  BILLEDQTY: Text,
  AMOUNT: Text,
  'RATEDETAILS.LIST': List(TallyRateDetail),
  'ACCOUNTINGALLOCATIONS.LIST': List(TallyLedgerEntry),
});

export const TallyVoucher = z.looseObject({
  GUID: z.string().min(1),
  ALTERID: z.string().regex(/^\d+$/),
  MASTERID: Text,
  DATE: Text,
  VOUCHERTYPENAME: Text,
  VOUCHERNUMBER: Text,
  REFERENCE: Text,
  NARRATION: Text,
  PARTYLEDGERNAME: Text,
  PARTYLEDGERGUID: Text,
  PARTYGSTIN: Text,
  PLACEOFSUPPLY: Text,
  ISINVOICE: Text,
  ISCANCELLED: Text,
  ISOPTIONAL: Text,
  IRN: Text,
  IRNACKNO: Text,
  IRNACKDATE: Text,
  'ALLINVENTORYENTRIES.LIST': List(TallyInventoryEntry),
  'LEDGERENTRIES.LIST': List(TallyLedgerEntry),
  'ALLLEDGERENTRIES.LIST': List(TallyLedgerEntry),
});
export type TallyVoucher = z.infer<typeof TallyVoucher>;
export type TallyLedgerEntry = z.infer<typeof TallyLedgerEntry>;
export type TallyInventoryEntry = z.infer<typeof TallyInventoryEntry>;

export const TallyAddress = z.looseObject({ ADDRESS: z.union([z.string(), z.array(z.string())]).optional() });
export const TallyLedger = z.looseObject({
  GUID: z.string().min(1),
  ALTERID: z.string().regex(/^\d+$/),
  NAME: Text,
  PARENT: Text,
  MAILINGNAME: Text,
  'ADDRESS.LIST': List(TallyAddress),
  LEDSTATENAME: Text,
  COUNTRYNAME: Text,
  PINCODE: Text,
  EMAIL: Text,
  LEDGERMOBILE: Text,
  INCOMETAXNUMBER: Text,
  PARTYGSTIN: Text,
  GSTREGISTRATIONTYPE: Text,
  GSTDUTYHEAD: Text,
  RATEOFTAXCALCULATION: Text,
});
export type TallyLedger = z.infer<typeof TallyLedger>;

export const TallyCompany = z.looseObject({
  NAME: Text,
  ALTVCHID: Text,
  ALTMSTID: Text,
  STATENAME: Text,
  GSTIN: Text,
});
export type TallyCompany = z.infer<typeof TallyCompany>;
