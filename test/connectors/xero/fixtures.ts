import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SourceRecord } from '../../../src/connector/types.js';
import {
  XeroContactsResponse,
  XeroCreditNotesResponse,
  XeroInvoicesResponse,
  XeroOrganisationResponse,
  XeroTaxRatesResponse,
  type XeroCreditNote,
  type XeroInvoice,
  type XeroListedContact,
} from '../../../connectors/xero/schemas.js';
import { lookupsFrom, type XeroLookups } from '../../../connectors/xero/streams/lookups.js';
import { rowOf } from '../../../connectors/xero/streams/read.js';
import { sourceRecordOf } from '../../../src/connector/define-stream.js';

/** Fixtures in test/fixtures/xero, read through the connector's own schemas and record builder. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/xero/${name}`, import.meta.url)), 'utf8'));
}

/** A raw Xero record as its stream makes it (the shared engine's rules with Xero's status words). */
export function toSourceRecord<Raw extends { UpdatedDateUTC: string }>(
  raw: Raw,
  id: string,
  status: string | null | undefined,
  endpoint: string,
): SourceRecord<Raw> {
  const rules = {
    primaryKey: '',
    statusOf: () => status,
    lifecycle: endpoint === 'GET /Contacts' ? {} : { draft: ['DRAFT', 'SUBMITTED'], void: ['VOIDED'] },
    deleted: ['DELETED'],
  };
  return { ...sourceRecordOf(rules, rowOf(raw, id, endpoint)), id };
}

export function invoiceRecord(name: string): SourceRecord<XeroInvoice> {
  const inv = XeroInvoicesResponse.parse(fixture(name)).Invoices[0]!;
  return toSourceRecord(inv, inv.InvoiceID, inv.Status, 'GET /Invoices');
}

export function creditNoteRecord(name: string): SourceRecord<XeroCreditNote> {
  const cn = XeroCreditNotesResponse.parse(fixture(name)).CreditNotes[0]!;
  return toSourceRecord(cn, cn.CreditNoteID, cn.Status, 'GET /CreditNotes');
}

export function contactRecords(name = 'contacts.json'): Array<SourceRecord<XeroListedContact>> {
  return XeroContactsResponse.parse(fixture(name)).Contacts.map((c) =>
    toSourceRecord(c, c.ContactID, c.ContactStatus ?? 'ACTIVE', 'GET /Contacts'),
  );
}

export const indiaLookups: XeroLookups = lookupsFrom(
  XeroOrganisationResponse.parse(fixture('organisation-india.json')),
  XeroTaxRatesResponse.parse(fixture('tax-rates-india.json')),
);
export const australiaLookups: XeroLookups = lookupsFrom(
  XeroOrganisationResponse.parse(fixture('organisation-australia.json')),
  XeroTaxRatesResponse.parse(fixture('tax-rates-australia.json')),
);

/** A UK organisation (GBP, 20 % VAT): test/fixtures/xero/README.md names the source of each file. */
export const ukLookups: XeroLookups = lookupsFrom(
  XeroOrganisationResponse.parse(fixture('organisation-uk.json')),
  XeroTaxRatesResponse.parse(fixture('tax-rates-uk.json')),
);

/** A line's GST tax object, as buildTax writes it. */
export function gst(total: number, cgst: number, sgst: number, halfRate: number) {
  return {
    total,
    tds: 0,
    gstTax: {
      totalGst: total,
      totalGstRate: halfRate * 2,
      cgst,
      cgstRate: halfRate,
      sgst,
      sgstRate: halfRate,
      igst: 0,
      igstRate: 0,
    },
    cgst,
    sgst,
    igst: 0,
  };
}
