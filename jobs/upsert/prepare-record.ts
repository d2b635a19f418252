import { parseBillingBody } from '../../src/connector/billing-body.js';
import { UpsertJobData } from '../catalog.js';
import type { PreparedRecord } from './types.js';

export function prepareRecord(data: UpsertJobData): PreparedRecord {
  const parsed = parseBillingBody(data.body);
  const body = parsed.data;
  const buyer =
    body?.kind === 'invoice'
      ? body.invoice.customerDetails
      : body?.kind === 'credit-note'
        ? body.creditNote.customerDetails
        : body?.customer;
  return { data, parsed, buyer };
}
