import type { EntityName } from '../../src/connector/entities.js';
import type { Lease } from '../../src/pipeline/lease-keeper.js';
import { JobSettlements } from './job-settlements.js';
import type { UpsertHelpers } from './types.js';

/** How long a job's record locks last unless it settles or extends them (a job whose worker died holds them this long). */
export const RECORD_LOCK_TTL_MS = 60_000;

/** The record locks a job holds and has not settled yet, as a lease (renewed by the process's lease keeper). */
export function recordLocksLease(
  rt: Pick<UpsertHelpers, 'upsertState'>,
  connection: string,
  entity: EntityName,
  settlements: Pick<JobSettlements, 'held' | 'owner'>,
  ttlMs: number,
): Lease {
  return {
    kind: 'record-locks',
    owner: settlements.owner,
    ttlMs,
    renew: async () => {
      const held = [...settlements.held];
      return (await rt.upsertState.extendLocks(connection, entity, held, ttlMs, settlements.owner)) === held.length;
    },
  };
}
