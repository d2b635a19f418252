/**
 * What a person does about a quarantined record, per reason code: where the fix is (the ERP record, the
 * config, billing), then a replay. The reasons: src/mapping/quarantine-reason.ts (mapping),
 * jobs/upsert/classify-upsert-failure.ts and jobs/upsert/failed-upsert.ts (billing and the job's end),
 * jobs/pull/draft-record.ts (a synced document back to draft).
 */
const FIX_HINTS: Record<string, string> = {
  AMOUNTS_INCONSISTENT:
    "the document's lines, tax, discounts and total do not add up: correct the document in the ERP, then replay it",
  FX_UNDERIVABLE:
    'a foreign-currency document without a usable exchange rate: set the exchange rate on the document in the ERP, then replay it',
  FX_SUSPECT:
    "the exchange rate is 1 or disagrees with the ERP's base-currency totals: correct the rate in the ERP, then replay it",
  MISSING_FIELD:
    'a field billing needs is empty: fill in the field named here on the record in the ERP, then replay it',
  INVALID_FIELD: 'a field holds a value billing cannot take: correct the field named here in the ERP, then replay it',
  UNSUPPORTED:
    'a kind of document this sync does not carry to billing: nothing to replay; enter it in billing by hand if it belongs there',
  SCHEMA_INVALID:
    "the mapped document failed billing's schema: correct the field named here in the ERP and replay it; if the ERP record is right, report it with this record's id",
  BILLING_REJECTED:
    'billing refused the document (its message says why): correct it in the ERP, or the customer or setting in billing it names, then replay it',
  BILLING_CONFLICT:
    'billing holds this document in a state the sync may not change (e.g. voided or deleted in billing): settle it in billing, then replay it',
  BILLING_AUTH:
    "billing refused the connection's key: fix billing.apiKey (or the connection's billing key) in the config, then replay",
  DEPENDENCY_MISSING:
    'a credit note whose invoice is not in billing: sync (or replay) the invoice first, then replay the credit note',
  RETRIES_EXHAUSTED:
    'every attempt failed on a passing fault (billing or the network): once `status` shows billing up, replay it',
  STALLED:
    'the record stopped its worker more than once: check the worker logs for a crash on this record, then replay it',
  JOB_INVALID: 'its job data could not be read (an upgrade in between?): replay it, which reads it from the ERP again',
  BILLING_COMPANY_CHANGED:
    "the connection's billing key now belongs to another company: decide with `erp-sync state rebind`, which replays these records",
  RETURNED_TO_DRAFT:
    'a synced document was set back to draft in the ERP: issue it again in the ERP (the next pull syncs it), or void it in billing',
};

const UNKNOWN = 'read the message, correct the record in the ERP or the setting it names, then replay it';

/** The fix hint of a reason code (a general one for a code this version does not know). */
export function quarantineFixHint(reason: string): string {
  return FIX_HINTS[reason] ?? UNKNOWN;
}
