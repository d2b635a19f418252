import { addBackfill } from '../jobs/backfill/backfill-processor.js';
import type { BackfillRequest } from '../jobs/backfill/types.js';
import { billingCompanyGuardOf } from '../jobs/admission/billing-company-guard.js';
import type { Runtime } from '../jobs/runtime.js';

/** The backfill run a request belongs to: its id, the windows it added, and whether it had already completed. */
export interface StartedBackfill {
  runId: string;
  children: number;
  alreadyDone: boolean;
}

/**
 * Adds a backfill's flow (one run per range: a run for the same range is resumed unless `restart`), after
 * refusing an unknown connection and one whose state belongs to another billing company than its key's,
 * before anything is queued. The windows run on the workers; this does not wait for them.
 */
export async function startBackfill(
  rt: Runtime,
  req: BackfillRequest,
  options: { restart?: boolean } = {},
): Promise<StartedBackfill> {
  rt.connection(req.connectionId); // a clear error for an unknown connection, before anything is queued
  await billingCompanyGuardOf(rt).check(req.connectionId);
  return addBackfill(rt, req, { restart: options.restart });
}
