import type { Runtime } from '../jobs/runtime.js';
import { ConfigError } from '../src/errors/index.js';
import type { RunFilter, RunRecord } from '../src/pipeline/run-history.js';

/** A run as `runs --json` and the API show it: instants as ISO, and how long it took. */
export type PrintedRun = Omit<RunRecord, 'startedAt' | 'endedAt'> & {
  startedAt: string;
  endedAt: string;
  durationMs: number;
};

/** The connection's last runs, newest first (an unknown connection throws; reconcile runs have no entity). */
export async function listRuns(
  rt: Pick<Runtime, 'connection' | 'runHistory'>,
  connection: string,
  filter: RunFilter,
  limit: number,
): Promise<PrintedRun[]> {
  rt.connection(connection);
  if (filter.kind === 'reconcile' && filter.entity)
    throw new ConfigError('--entity selects pulls and backfill windows; reconcile runs have no entity');
  return (await rt.runHistory.list(connection, filter, limit)).map((r) => ({
    ...r,
    startedAt: new Date(r.startedAt).toISOString(),
    endedAt: new Date(r.endedAt).toISOString(),
    durationMs: r.endedAt - r.startedAt,
  }));
}
