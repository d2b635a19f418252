import type { TaxIdentifier } from '../../../src/billing/schemas/customer.js';

/**
 * Xero keeps one free-text `TaxNumber` per contact (ABN, GST No., VAT No.; reference §3.4). Classified:
 * - a 15-character GSTIN (2-digit state code, PAN, entity, 'Z', check) → GSTIN, plus the PAN inside it
 *   (characters 3–12 of every GSTIN are the holder's PAN);
 * - two letters followed by 8–12 letters/digits (EU/UK VAT: GB123456789, DE123456789) → VAT;
 * - anything else (Australian ABN, US EIN, ...) → OTHER.
 * Spaces are removed and letters upper-cased first.
 */
const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const VAT = /^[A-Z]{2}[0-9A-Z]{8,12}$/;

export function taxIdentifiersOf(taxNumber: string | null | undefined): TaxIdentifier[] {
  const value = (taxNumber ?? '').replace(/[\s-]/g, '').toUpperCase();
  if (value === '') return [];
  if (GSTIN.test(value))
    return [
      { value, type: 'GSTIN' },
      { value: value.slice(2, 12), type: 'PAN' },
    ];
  if (VAT.test(value)) return [{ value, type: 'VAT' }];
  return [{ value: (taxNumber ?? '').trim(), type: 'OTHER' }];
}

export function gstinOf(taxNumber: string | null | undefined): string | undefined {
  return taxIdentifiersOf(taxNumber).find((t) => t.type === 'GSTIN')?.value;
}
