/** What became of a state-changing request. */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'not-found', 'invalid', 'conflict', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One state-changing request: who (a token's name, never the token), what, on which connection or record, when, how it ended. */
export interface AuditEntry {
  /** The stream entry id (time-ordered): the paging cursor of `list`. */
  id: string;
  /** Epoch ms. */
  at: number;
  who: string;
  /** e.g. `connections.pause`, `quarantine.replay`. */
  action: string;
  connection?: string;
  /** `entity/erpId` for a request about one record. */
  record?: string;
  outcome: AuditOutcome;
  /** The HTTP status answered; 0 for a change made from the command line (`erp-sync review approve`, …). */
  status: number;
  /** A short summary of the request or its result (a pause reason, how many records were replayed, an error message). */
  detail?: string;
}

export interface AuditQuery {
  /** At most this many, newest first. */
  limit: number;
  /** Only entries older than this entry id (the previous page's last id). */
  before?: string;
  /** Only entries whose connection passes (a company-limited token); entries with no connection never do then. */
  connection?: (id: string) => boolean;
}
