/**
 * The sandbox's internal records. Money is integer paise; the QBO JSON is rendered from these on every
 * read (render-*.ts), so amounts, balances and totals are always consistent with the lines.
 */
export type DocKind = 'Invoice' | 'CreditMemo';
export type EntityKind = DocKind | 'Customer';

export interface Address {
  Id?: string;
  Line1?: string;
  Line2?: string;
  City?: string;
  CountrySubDivisionCode?: string;
  PostalCode?: string;
  Country?: string;
}

export interface StoredCustomer {
  id: string;
  syncToken: number;
  displayName: string;
  companyName: string;
  givenName?: string;
  familyName?: string;
  email?: string;
  phone?: string;
  billAddr: Address;
  shipAddr?: Address;
  currency: string;
  active: boolean;
  gstin?: string;
  pan?: string;
  gstRegistrationType: 'GST_REG_REG' | 'GST_REG_COMP' | 'GST_UNREG' | 'CONSUMER' | 'OVERSEAS' | 'SEZ' | 'DEEMED';
  notes?: string;
  createTime: number;
  lastUpdated: number;
}

export interface StoredLine {
  id: string;
  itemId: string;
  itemName: string;
  description: string;
  qty: number;
  unitPricePaise: number;
}

/** A reference as QBO writes it: `{value, name}`. */
export interface Ref {
  value: string;
  name: string;
}

/**
 * A custom field as QBO returns it (Finance.xsd CustomField): the legacy string fields have DefinitionId
 * "1".."3"; the others come back only with `include=enhancedAllCustomFields` (vendor-routes.ts).
 */
export interface CustomFieldValue {
  DefinitionId: string;
  Name: string;
  Type: 'StringType' | 'NumberType' | 'DateType' | 'BooleanType';
  StringValue?: string;
  NumberValue?: number;
  DateValue?: string;
  BooleanValue?: boolean;
}

export interface LinkedTxn {
  TxnId: string;
  TxnType: string;
}

export interface StoredDoc {
  kind: DocKind;
  id: string;
  syncToken: number;
  docNumber: string;
  txnDate: string;
  dueDate?: string;
  customerId: string;
  currency: string;
  /** Home-currency units per one foreign unit, decimal string; only for foreign-currency documents. */
  exchangeRate?: string;
  lines: StoredLine[];
  /** Text rows (DetailType DescriptionOnly) appended after the items. */
  notes: string[];
  /** Document discount: a percentage (basis points) or a fixed amount (paise). */
  discount?: { percentBp: number } | { amountPaise: number };
  applyTaxAfterDiscount: boolean;
  taxCodeId: string;
  /** Invoices: cash received (paise). */
  paidPaise: number;
  /** Invoices: credit memos applied (paise). Credit memos: credit applied to invoices (paise). */
  creditPaise: number;
  voided: boolean;
  privateNote?: string;
  customerMemo?: string;
  /** Class and department (QBO's "location") of the whole transaction. */
  classRef?: Ref;
  departmentRef?: Ref;
  customFields?: CustomFieldValue[];
  linked: LinkedTxn[];
  /** Credit memos: the invoice they correct (IN region). */
  invoiceRef?: string;
  billAddr?: Address;
  shipAddr?: Address;
  billEmail?: string;
  createTime: number;
  lastUpdated: number;
}

export interface DeletedStub {
  entity: DocKind;
  id: string;
  deletedAt: number;
}
