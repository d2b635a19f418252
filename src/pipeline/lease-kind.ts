/** What a lease keeps: a job's connection slot, a stream's incremental-pull lock, or an upsert job's record locks. */
export type LeaseKind = 'job-slot' | 'pull-lock' | 'record-locks';
export const LEASE_KINDS = ['job-slot', 'pull-lock', 'record-locks'] as const satisfies readonly LeaseKind[];
