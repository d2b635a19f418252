import { parseMsDate } from './xero-date.js';

/**
 * The API answers XML unless the caller sends `Accept: application/json`: a client that forgets the header
 * gets XML it cannot parse as JSON.
 * A minimal rendering: one element per field, arrays as a wrapper with one child per item (singular
 * names as Xero uses them), `/Date(ms)/` values as ISO instants, as the XML API writes dates.
 */
const SINGULAR: Record<string, string> = {
  Invoices: 'Invoice',
  CreditNotes: 'CreditNote',
  Contacts: 'Contact',
  LineItems: 'LineItem',
  Payments: 'Payment',
  Allocations: 'Allocation',
  Addresses: 'Address',
  Phones: 'Phone',
  ContactPersons: 'ContactPerson',
  ContactGroups: 'ContactGroup',
  TaxRates: 'TaxRate',
  TaxComponents: 'TaxComponent',
  Organisations: 'Organisation',
  Prepayments: 'Prepayment',
  Overpayments: 'Overpayment',
  Tracking: 'TrackingCategory',
  Elements: 'DataContractBase',
  ValidationErrors: 'ValidationError',
  Warnings: 'Warning',
};

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function element(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    const child = SINGULAR[name] ?? name.replace(/s$/, '');
    return `<${name}>${value.map((v) => element(child, v)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    return `<${name}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(k, v))
      .join('')}</${name}>`;
  }
  const ms = parseMsDate(value);
  const text = ms !== undefined ? new Date(ms).toISOString().slice(0, 23) : String(value);
  return `<${name}>${escape(text)}</${name}>`;
}

export function renderXml(root: string, body: Record<string, unknown>): string {
  return `<${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">${Object.entries(
    body,
  )
    .map(([k, v]) => element(k, v))
    .join('')}</${root}>`;
}

export function wantsJson(accept: string | string[] | undefined): boolean {
  const a = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return /application\/json/i.test(a);
}
