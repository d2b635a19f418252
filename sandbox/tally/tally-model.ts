/**
 * What the TallyPrime emulator holds, in Tally's own terms (field names as Tally exports them; see
 * connectors/tally/README.md for the sources). Amounts are integers in paise: the store never does money
 * in floats, and renders Tally's formats ("-59000.00", "50,000.00/Nos", " 2 Nos") only on the way out.
 */
export interface TallyCompany {
  name: string;
  stateName: string;
  gstin: string;
  /** The company's financial year start (YYYYMMDD), as Tally's SVFROMDATE default. */
  booksFrom: string;
}

/** A ledger master: customers are ledgers under "Sundry Debtors"; tax, sales and round-off ledgers too. */
export interface TallyLedger {
  guid: string;
  masterId: number;
  alterId: number;
  name: string;
  parent: string;
  mailingName?: string;
  address?: string[];
  stateName?: string;
  countryName?: string;
  pincode?: string;
  email?: string;
  mobile?: string;
  /** PAN. */
  incomeTaxNumber?: string;
  gstin?: string;
  gstRegistrationType?: string;
  /** Duties & Taxes ledgers: "Central Tax", "State Tax", "Integrated Tax", "Cess". */
  gstDutyHead?: string;
  /** A ledger under Duties & Taxes whose type of duty is not GST: "TDS". */
  taxType?: string;
  /** Duties & Taxes ledgers: the rate, percent. */
  rateOfTax?: number;
}

export interface TallyInventoryEntry {
  stockItemName: string;
  hsn: string;
  /** Paise per unit. */
  ratePaise: number;
  quantity: number;
  unit: string;
  /** Paise: rate × quantity (always positive here; the voucher type gives the sign). */
  amountPaise: number;
  /** Total GST rate (percent) and cess rate of the item. */
  gstRate: number;
  cessRate: number;
  salesLedger: string;
}

export interface TallyLedgerEntry {
  ledgerName: string;
  /** Paise, signed as Tally exports it: a debit negative, a credit positive. */
  amountPaise: number;
  bills?: Array<{ name: string; billType: 'New Ref' | 'Agst Ref'; amountPaise: number }>;
}

export interface TallyVoucher {
  guid: string;
  masterId: number;
  alterId: number;
  /** YYYYMMDD (a calendar date: Tally has no time of day on a voucher). */
  date: string;
  voucherTypeName: 'Sales' | 'Credit Note';
  voucherNumber: string;
  reference?: string;
  narration?: string;
  partyLedgerName: string;
  partyGstin?: string;
  placeOfSupply: string;
  isCancelled: boolean;
  irn?: string;
  irnAckNo?: string;
  /** YYYYMMDD. */
  irnAckDate?: string;
  inventory: TallyInventoryEntry[];
  /** The party first, then tax, TDS and round-off ledgers. */
  ledgers: TallyLedgerEntry[];
}
