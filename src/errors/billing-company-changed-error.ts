import { SyncError } from './sync-error.js';

/**
 * A connection's sync state (ledger, customers ensured, checkpoints) was written for one billing
 * company, and its billing key is now another company's: that state would tell the new company
 * "already in billing" for records it has never seen. Never retried: a person decides
 * (`erp-sync state rebind`), and until then nothing of the connection is synced.
 */
export class BillingCompanyChangedError extends SyncError {
  readonly code = 'SYNC_ERR_BILLING_COMPANY_CHANGED';
  readonly retryable = false;

  constructor(
    readonly connection: string,
    readonly boundTo: string,
    readonly configured: string,
  ) {
    super(
      `billing company changed for connection ${connection}: its sync state was written for billing company "${boundTo}", ` +
        `but its billing key is now company "${configured}"'s; nothing of it is synced until a person decides: ` +
        `\`erp-sync state rebind --connection ${connection} --same-company\` (the key is a new key of the same company: keep the state) ` +
        `or \`--new-company\` (clear its state and sync its history again into "${configured}")`,
    );
  }
}
