import {
  AttachmentListQuery,
  CreditNoteAttachmentBody,
  InvoiceAttachmentBody,
} from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import type { StoredAttachment, StoredInvoice } from '../billing-store.js';
import { formatServiceTimestamp, utcDateOf } from '../service-timestamp.js';
import { guarded, notFound } from '../errors.js';
import { fieldsMaskOf } from '../fields-mask.js';
import { envelopeOk } from '../responses.js';
import { parseBody, parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Endpoints 6 (POST /invoice/attachment/upload, attachment key), 7 (GET /invoice/attachments,
 * attachment key) and 8 (POST /creditNote/attachment/upload, service key).
 *
 * A21: the purpose travels as `attachmentPurpose` (default GENERAL); the filename is the last path
 * segment of `attachmentUrl`. A22: endpoint 7 selects the invoice by `invoiceNumber` and filters by
 * `uploadedFrom` / `uploadedTo` (UTC date part of createdAt, inclusive) and `attachmentPurpose`.
 * Unknown (or deleted) invoice / credit note number → 404. Attaching does not change the invoice's
 * updatedAt. The fields mask (A27) applies to `data` (6, 7) and to `data` of 8 (`id` always kept).
 * Attachment objects carry extras `id` and `url`.
 */
export function filenameOf(url: string): string {
  const u = new URL(url);
  const last = u.pathname
    .split('/')
    .filter((s) => s !== '')
    .pop();
  if (last === undefined) return u.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function attachmentView(a: StoredAttachment) {
  return {
    id: a.id,
    filename: a.filename,
    purpose: a.purpose,
    createdAt: formatServiceTimestamp(a.createdAtMs),
    url: a.url,
  };
}

function attachmentList(inv: StoredInvoice, attachments: readonly StoredAttachment[]): Record<string, unknown> {
  return {
    invoiceId: inv.input.invoiceId,
    invoiceNumber: inv.input.invoiceNumber,
    customerName: inv.input.customerName ?? inv.input.customerDetails?.name ?? null,
    buyerId: inv.input.customerDetails?.buyerId ?? inv.input.customerId ?? null,
    attachments: attachments.map(attachmentView),
  };
}

export function registerAttachmentRoutes(router: Router, { store, clock, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/invoice/attachment/upload',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'attachment');
      const body = parseBody(InvoiceAttachmentBody, ctx.body);
      const inv = store.company(companyId).invoiceByNumberLive(body.invoiceNumber);
      if (!inv) throw notFound(`invoiceNumber: no invoice with number ${body.invoiceNumber}`);
      inv.attachments.push({
        id: store.nextId('att'),
        filename: filenameOf(body.attachmentUrl),
        url: body.attachmentUrl,
        purpose: body.attachmentPurpose ?? 'GENERAL',
        createdAtMs: clock.now(),
      });
      return envelopeOk(fieldsMaskOf(ctx.headers)(attachmentList(inv, inv.attachments)));
    }),
  );

  router.on(
    'GET',
    '/invoice/attachments',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'attachment');
      const q = parseQuery(AttachmentListQuery, ctx.query);
      const inv = store.company(companyId).invoiceByNumberLive(q.invoiceNumber);
      if (!inv) throw notFound(`invoiceNumber: no invoice with number ${q.invoiceNumber}`);
      const selected = inv.attachments.filter((a) => {
        const day = utcDateOf(a.createdAtMs);
        return (
          (q.uploadedFrom === undefined || day >= q.uploadedFrom) &&
          (q.uploadedTo === undefined || day <= q.uploadedTo) &&
          (q.attachmentPurpose === undefined || a.purpose === q.attachmentPurpose)
        );
      });
      return envelopeOk(fieldsMaskOf(ctx.headers)(attachmentList(inv, selected)));
    }),
  );

  router.on(
    'POST',
    '/creditNote/attachment/upload',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const body = parseBody(CreditNoteAttachmentBody, ctx.body);
      const note = store.company(companyId).creditNoteByNumber.get(body.creditNoteNumber);
      if (!note) throw notFound(`creditNoteNumber: no credit note with number ${body.creditNoteNumber}`);
      const attachment: StoredAttachment = {
        id: store.nextId('att'),
        filename: filenameOf(body.attachmentUrl),
        url: body.attachmentUrl,
        purpose: body.attachmentPurpose ?? 'GENERAL',
        createdAtMs: clock.now(),
      };
      note.attachments.push(attachment);
      return envelopeOk(fieldsMaskOf(ctx.headers)({ id: attachment.id }));
    }),
  );
}
