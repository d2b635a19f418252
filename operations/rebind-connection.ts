import { billingCompanyGuardOf } from '../jobs/admission/billing-company-guard.js';
import type { Runtime } from '../jobs/runtime.js';
import { ENTITY_NAMES } from '../src/connector/entities.js';
import { ConfigError } from '../src/errors/index.js';
import { replayQuarantined } from './replay-quarantined.js';

export type RebindMode = 'same-company' | 'new-company';

export interface RebindResult {
  connection: string;
  mode: RebindMode;
  /** The company the state belonged to, and the one it belongs to now (names or `key-<fingerprint>`). */
  from: string;
  to: string;
  /** same-company: records quarantined as BILLING_COMPANY_CHANGED while it was refused, enqueued again. */
  replayed?: number;
  /** new-company: the connection's upsert jobs not started yet, removed (mapped for the company it left). */
  removedJobs?: number;
}

type RebindRuntime = Pick<
  Runtime,
  | 'connection'
  | 'logger'
  | 'config'
  | 'billingOf'
  | 'billingCompanies'
  | 'ledger'
  | 'checkpoints'
  | 'quarantine'
  | 'inFlight'
  | 'queues'
  | 'connectionState'
>;

/**
 * A person's answer to a refused connection (its key is now another billing company's than its state):
 * - `same-company`: the new key is the same company's (a rotated key, a second key): the state stays, is
 *   bound to the new key, and the records refused meanwhile are enqueued again;
 * - `new-company`: the connection now writes to another company, which holds none of its records: its
 *   ledger forgets what was written (each record is written again, under a new job id, its document
 *   link attached again: a cleared ledger would leave the records' job ids to be taken for duplicates of
 *   the completed jobs of the old company), its upsert jobs not started yet are removed, and the rest of
 *   its state starts over (ConnectionState.resetForCompany), so the next pulls read its whole history
 *   again into the new company. The old company keeps what it has.
 */
export async function rebindConnection(rt: RebindRuntime, connection: string, mode: RebindMode): Promise<RebindResult> {
  const { company, keyId } = rt.connection(connection).billing;
  const status = await billingCompanyGuardOf(rt).status(connection);
  if (!status.refused) {
    throw new ConfigError(
      `connection ${connection}: its state ${status.boundTo ? `already belongs to billing company "${status.boundTo}"` : 'belongs to no billing company yet'}, the one its key names; nothing to rebind`,
    );
  }
  const from = status.boundTo!;
  if (mode === 'same-company') {
    await rt.billingCompanies.set(connection, { company, keyId, since: Date.now() });
    const refused = (await rt.quarantine.list(connection)).filter((e) => e.reason === 'BILLING_COMPANY_CHANGED');
    if (refused.length) await replayQuarantined(rt, refused);
    return { connection, mode, from, to: company, replayed: refused.length };
  }

  // Jobs mapped for the company it left (its base currency, its customers) must not reach the new one.
  let removedJobs = 0;
  for (const job of await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed'], 0, -1)) {
    if ((job?.data as { connectionId?: string } | undefined)?.connectionId !== connection) continue;
    await job.remove().then(
      () => removedJobs++,
      () => undefined, // started meanwhile: its worker refuses it (the connection is still bound to the old company)
    );
  }
  for (const e of ENTITY_NAMES) await rt.ledger.forgetWritten(connection, e);
  // The store is built on the runtime's state connection, as every store is.
  await rt.connectionState.resetForCompany(connection, ENTITY_NAMES, {
    company,
    keyId,
    since: Date.now(),
  });
  return { connection, mode, from, to: company, removedJobs };
}
