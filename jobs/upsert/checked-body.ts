import type { EntityName } from '../../src/connector/entities.js';
import { DataContractError, formatZodIssues } from '../../src/errors/index.js';
import type { CheckedBody, PreparedRecord } from './types.js';

/** The billing call that writes each entity (named as billing's client names its operations). */
const BILLING_WRITE = {
  invoices: 'POST /external/invoice/upsert',
  'credit-notes': 'POST /external/creditNotes/upsert',
  customers: 'POST /external/customer',
} as const satisfies Record<EntityName, string>;

/** A body billing's schema refuses: the refusal (and the quarantine entry) billing's client would give. */
export function checkedBody({ parsed, data }: PreparedRecord): CheckedBody {
  if (parsed.data) return parsed.data;
  const operation = BILLING_WRITE[data.entity];
  throw new DataContractError(`billing ${operation}: invalid request`, {
    issues: formatZodIssues(parsed.error!),
    source: 'billing',
    operation,
  });
}
