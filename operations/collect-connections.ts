import { connectionBudget } from '../jobs/connection-budget.js';
import type { Runtime } from '../jobs/runtime.js';
import { credentialsStatus } from '../src/auth/credentials-status.js';

type ListRuntime = Pick<
  Runtime,
  'config' | 'connection' | 'connectionControl' | 'syncStatus' | 'quotas' | 'outages' | 'tokens'
>;

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/**
 * Each configured connection (or those of `ids`, in config order) as `erp-sync connections` and the API
 * show it: whether it runs (paused by an operator, its credentials refused by the vendor, parked on its
 * vendor quota, its vendor down), its billing company, its schedule, each stream's last run, last success
 * and lag (now − the last successful pull), and its vendor quota used against its limits.
 */
export async function collectConnections(rt: ListRuntime, now = Date.now(), ids?: readonly string[]) {
  const out = [];
  for (const c of rt.config.connections) {
    if (ids && !ids.includes(c.id)) continue;
    const control = await rt.connectionControl.state(c.id);
    const parked = await rt.quotas.parkedUntil(c.id);
    const outage = await rt.outages.get(c.id);
    const { lastSuccess, lastError } = await rt.syncStatus.read(c.id);
    const handle = rt.connection(c.id);
    const credentials = await credentialsStatus(rt.tokens, handle);
    const state: 'running' | 'paused' | 'reauthorise' | 'parked' | 'vendor-down' =
      control.state === 'paused'
        ? 'paused'
        : !credentials.ok
          ? 'reauthorise'
          : parked
            ? 'parked'
            : outage
              ? 'vendor-down'
              : 'running';
    out.push({
      id: c.id,
      system: c.system,
      /** The billing company it writes to (a name, or `key-<fingerprint>`: never a key). */
      company: handle.billing.company,
      state,
      paused:
        control.state === 'paused'
          ? { since: iso(control.since), by: control.by ?? null, reason: control.reason ?? null }
          : null,
      /** Jobs held while paused and not yet released (after a resume: run it again). */
      heldJobs: await rt.connectionControl.heldCount(c.id),
      parkedUntil: iso(parked),
      /** Whether the vendor accepts the connection's refresh token (not: re-authorise it; the connection is parked meanwhile). */
      credentials,
      vendor: outage ? { up: false, downSince: iso(outage.since), lastError: outage.message } : { up: true },
      schedule: { everySeconds: c.schedule.everySeconds, entities: [...c.entities] },
      entities: c.entities.map((entity) => {
        const ok = lastSuccess[entity];
        const failed = lastError[entity];
        return {
          entity,
          /** When the last incremental pull ended, successfully or not (an error is kept until the next success). */
          lastRun: iso(failed ? Math.max(failed.at, ok ?? 0) : ok),
          lastSuccess: iso(ok),
          lagSeconds: ok ? Math.max(0, Math.round((now - ok) / 1000)) : null,
          lastError: failed ? { at: iso(failed.at), message: failed.message } : null,
        };
      }),
      // `used` as the quota store reports it (its fields may grow); `limits` the connection's budget.
      quota: { used: await rt.quotas.usage(c.id), limits: connectionBudget(handle) },
    });
  }
  return { connections: out };
}

export type ConnectionView = Awaited<ReturnType<typeof collectConnections>>['connections'][number];
