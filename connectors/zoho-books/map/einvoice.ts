import { mapFail, nonBlank, parseTimestamp } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoEinvoiceDetails } from '../schemas.js';

/** What an invoice's India e-invoice registration becomes in the billing input. */
export interface EinvoiceFields {
  /** The IRN, only while it stands (not cancelled). */
  irnNumber?: string;
  /** Flat metaData entries (the input has no acknowledgement fields: docs/interface-assumptions.md, A38). */
  meta: Record<string, string | undefined>;
}

/** IRP acknowledgement times are India Standard Time; Zoho prints them without a zone ("2026-04-02 11:18:00"). */
const IST_OFFSET = '+05:30';
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/;

/**
 * `einvoice_details` (India) → billing. Zoho's fields: `inv_ref_num` (the IRN), `ack_number`, `ack_date`,
 * `status` (pushed, cancelled, failed …) and `qr_link`, a URL of a QR image that Zoho serves — Zoho gives no
 * signed-QR string, so `eInvoiceQrCode` is never sent (a URL in a field meant for the IRP's signed QR would
 * scan but fail verification); the link travels in `metaData.einvoiceQrLink`.
 *
 * A cancelled IRN is not a void: the invoice keeps Zoho's own status (`metaData.sourceStatus`), `irnNumber` is
 * left out (billing's upsert replaces the invoice, so an IRN sent earlier is cleared), and the cancelled IRN
 * stays visible as `metaData.einvoiceCancelledIrn`. The number cannot be registered again: a re-issued
 * invoice is a new Zoho document, synced as its own invoice. Zoho sends no webhook when the e-invoice status
 * changes; the change bumps nothing we are told about, so it reaches billing when the invoice is next read
 * (its `last_modified_time` moves when Zoho records the IRP's answer, or the reconcile pass reads it).
 */
export function einvoiceOf(s: Steps, details: ZohoEinvoiceDetails | null | undefined): EinvoiceFields {
  const irn = nonBlank(details?.inv_ref_num);
  const status = nonBlank(details?.status)?.toLowerCase();
  if (!details || (!irn && !status)) return { meta: {} };
  const cancelled = status === 'cancelled';
  const ackDate = nonBlank(details.ack_date);
  return {
    ...(irn && !cancelled ? { irnNumber: irn } : {}),
    meta: {
      einvoiceStatus: status,
      einvoiceCancelledIrn: cancelled ? irn : undefined,
      einvoiceAckNumber: nonBlank(details.ack_number),
      einvoiceAcknowledgedAt: ackDate ? ackDateOf(s, ackDate) : undefined,
      einvoiceQrLink: nonBlank(details.qr_link),
    },
  };
}

/** "2026-04-02 11:18:00" (IST, no zone) → "2026-04-02T11:18:00+05:30"; a value with an offset is kept as placed. */
function ackDateOf(s: Steps, raw: string): string {
  const m = ZONELESS.exec(raw);
  const text = m ? `${m[1]}T${m[2]}${IST_OFFSET}` : raw;
  const placed = parseTimestamp(text, { field: 'einvoice_details.ack_date' });
  if (!placed.ok)
    s.fail(
      mapFail('INVALID_FIELD', `einvoice_details.ack_date ${JSON.stringify(raw)} is not a date and time`, {
        field: 'einvoice_details.ack_date',
      }),
    );
  return text;
}
