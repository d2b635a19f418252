import type { TaxKind } from '../../../src/mapping/index.js';

/**
 * The GST supply type of an invoice, in the e-invoice schema's codes (B2B, B2C, SEZWP, SEZWOP, EXPWP,
 * EXPWOP, DEXP), from Zoho's `gst_treatment` (https://www.zoho.com/books/api/v3/invoices/: business_gst,
 * business_none, overseas, consumer, business_sez, deemed_export, tax_deductor, sez_developer …) and whether
 * IGST was charged: an export or SEZ supply with IGST is "with payment" (WP), without IGST it is under a
 * bond or LUT (WOP). Sent as `metaData.supplyType` (docs/interface-assumptions.md, A40); undefined when Zoho
 * gives no treatment or one not listed here (the treatment itself still travels as `metaData.gstTreatment`).
 */
export function supplyTypeOf(gstTreatment: string | undefined, kinds: ReadonlySet<TaxKind>): string | undefined {
  const withPayment = kinds.has('igst');
  switch (gstTreatment) {
    case 'business_gst':
    case 'business_registered_composition':
    case 'business_registered_regular':
    case 'tax_deductor':
    case 'tax_collector':
    case 'input_service_distributor':
      return 'B2B';
    case 'business_none':
    case 'consumer':
      return 'B2C';
    case 'overseas':
      return withPayment ? 'EXPWP' : 'EXPWOP';
    case 'business_sez':
    case 'sez_developer':
      return withPayment ? 'SEZWP' : 'SEZWOP';
    case 'deemed_export':
      return 'DEXP';
    default:
      return undefined;
  }
}

/** An export (`gst_treatment: overseas`): its place of supply is outside India. */
export function isExport(gstTreatment: string | undefined): boolean {
  return gstTreatment === 'overseas';
}
