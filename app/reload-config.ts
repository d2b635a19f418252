import { isDeepStrictEqual } from 'node:util';
import type { Queue } from 'bullmq';
import type { AppConfig } from '../src/config.js';
import { buildInfo } from '../src/build-info.js';
import { type ConfigReloadResult, initialiseSeries } from '../src/observability/metrics.js';
import { reconcileSchedulerId, upsertReconcileSchedulers } from '../jobs/reconcile/reconcile-processor.js';
import type { Runtime } from '../jobs/runtime.js';
import {
  deletesSchedulerId,
  pullSchedulerId,
  type Role,
  upsertSchedulers,
  upsertSweepScheduler,
  wantedDeletesSweeps,
} from './worker-service.js';

/**
 * The config keys a reload applies to a running worker: the connections (their schedulers are upserted
 * or removed, and lookups see the new config at a job's next start), the schedules of the reconcile
 * and the sweep (schedulers too), and what the API and the console read at each request (`http.tokens`,
 * `http.publicUrl`, `http.trustedProxies`). Every other key is read once at start (Redis connections, the HTTP
 * server, the workers' concurrency and locks, the billing client, the jobs' helpers) and keeps its
 * running value until a restart: a reload reports it, and applies the rest.
 */
export const LIVE_KEYS = [
  'connections',
  'reconcile.windowDays',
  'reconcile.everySeconds',
  'sync.sweepEverySeconds',
  // Read at each request (api/auth.ts, the console's sign-in and connect): a removed token's sessions end at their next request.
  'http.tokens',
  'http.publicUrl',
  'http.trustedProxies',
] as const;

/** What a reload would do: the config to run with, and how it differs from the running one. */
export interface ReloadPlan {
  /** The running config with the live keys of the new one. */
  config: AppConfig;
  added: string[];
  removed: string[];
  /** Changed connections: id → the keys that changed (paths in the connection, never values). */
  changed: Record<string, string[]>;
  /** Keys whose new value needs a restart (they keep their running value). */
  restartNeeded: string[];
}

export interface ReloadOutcome extends Omit<ReloadPlan, 'config'> {
  result: ConfigReloadResult;
  /** Why the file was refused (`path: message` each), or why the schedulers could not be updated. */
  errors: string[];
}

/**
 * SIGHUP: re-reads and validates the config (`load`: the same loadConfig and connector settings
 * validation as at start) and applies it to the running service, or refuses it whole.
 * - Invalid (unreadable, not YAML, a schema or settings error, an unset `${VAR}`): refused, each error
 *   logged with its path (never a value), the running config kept, `erpsync_config_reload_total{result="refused"}`.
 * - Valid: the runtime swaps in the connections first (a scheduler's first job must find its connection),
 *   then the schedulers of this process's roles are made to match the config: upserted (idempotent; the
 *   same as at start) and those of connections or entities no longer configured removed. Removed
 *   connections keep their state (checkpoints, ledger, quarantine): adding them back resumes where they
 *   were. Keys outside LIVE_KEYS that changed are logged as needing a restart.
 * Never rejects: what went wrong is in the outcome, the log and the metrics.
 */
export async function reloadConfig(
  rt: Runtime,
  roles: readonly Role[],
  load: () => Promise<AppConfig>,
): Promise<ReloadOutcome> {
  const m = rt.metrics;
  let next: AppConfig;
  try {
    next = await load();
  } catch (e) {
    const { summary, errors } = describeLoadError(e);
    rt.logger.error({ error: summary, errors }, 'config reload refused; the running config is kept');
    m.configReloads.inc({ result: 'refused' });
    m.configLastReloadSuccessful.set(0);
    return { result: 'refused', errors, added: [], removed: [], changed: {}, restartNeeded: [] };
  }
  const { errors, ...plan } = await applyConfig(rt, roles, next, 'config reloaded');
  if (errors.length) {
    rt.logger.error(
      { ...plan, errors },
      'config reloaded, but the job schedulers could not be updated; send SIGHUP again',
    );
    m.configReloads.inc({ result: 'failed' });
    m.configLastReloadSuccessful.set(0);
    return { result: 'failed', errors, ...plan };
  }
  if (plan.restartNeeded.length) {
    rt.logger.warn(
      { keys: plan.restartNeeded },
      'changed config keys take effect only after a restart; they keep their running values',
    );
  }
  m.configReloads.inc({ result: 'ok' });
  m.configLastReloadSuccessful.set(1);
  m.configLastReloadSuccess.set(Date.now() / 1000);
  m.configRestartRequired.set(plan.restartNeeded.length ? 1 : 0);
  return { result: 'ok', errors: [], ...plan };
}

/**
 * Applies `next` to the running service (a reload, or a change of the connections stored in Redis:
 * app/stored-connections-watch.ts): the runtime swaps in its connections first (a scheduler's first job
 * must find its connection), then the schedulers of this process's roles are made to match. Logs `done`
 * with the plan; `errors` says why the schedulers could not be updated.
 */
export async function applyConfig(
  rt: Runtime,
  roles: readonly Role[],
  next: AppConfig,
  done: string,
): Promise<Omit<ReloadPlan, 'config'> & { errors: string[] }> {
  const { config, ...plan } = planReload(rt.config, next);
  rt.reconfigure(config);
  // New connections' and entities' series start at 0 (as at start); counters already there are untouched.
  initialiseSeries(rt.metrics, { queues: [], connections: config.connections, build: buildInfo() });
  try {
    const schedulers = await syncSchedulers(rt, roles);
    rt.logger.info({ ...plan, schedulers }, done);
    return { ...plan, errors: [] };
  } catch (e) {
    return { ...plan, errors: [(e as Error).message] };
  }
}

/** How `next` differs from the running config, and the config to run with (frozen, like a parsed one). */
export function planReload(current: AppConfig, next: AppConfig): ReloadPlan {
  const isLive = (path: string) => LIVE_KEYS.some((k) => path === k || path.startsWith(`${k}.`));
  const restartNeeded = changedPaths(current, next).filter((p) => !isLive(p));
  let config = current;
  for (const key of LIVE_KEYS) config = withValue(config, key.split('.'), valueAt(next, key.split('.')));
  const before = new Map(current.connections.map((c) => [c.id, c]));
  const after = new Set(next.connections.map((c) => c.id));
  const changed: Record<string, string[]> = {};
  for (const c of next.connections) {
    const old = before.get(c.id);
    if (old && !isDeepStrictEqual(old, c)) changed[c.id] = changedPaths(old, c);
  }
  return {
    config,
    added: next.connections.filter((c) => !before.has(c.id)).map((c) => c.id),
    removed: current.connections.filter((c) => !after.has(c.id)).map((c) => c.id),
    changed,
    restartNeeded,
  };
}

/**
 * The schedulers of this process's roles made to match the config, as at start (the pull role owns the
 * pull schedulers, reconcile the reconcile ones, upsert the sweep's), and the ones of connections (or
 * entities) the config no longer has removed, whichever process created them.
 */
async function syncSchedulers(rt: Runtime, roles: readonly Role[]): Promise<{ upserted: number; removed: string[] }> {
  let upserted = 0;
  const removed: string[] = [];
  const { connections, reconcile } = rt.config;
  if (roles.includes('pull')) {
    upserted += await upsertSchedulers(rt);
    const wanted = new Set(connections.flatMap((c) => c.entities.map((e) => pullSchedulerId(c.id, e))));
    removed.push(...(await removeSchedulers(rt.queues.pull, 'pull-', wanted)));
    const sweeps = new Set(wantedDeletesSweeps(rt).map((s) => deletesSchedulerId(s.connectionId, s.entity)));
    removed.push(...(await removeSchedulers(rt.queues.pull, 'deletes-', sweeps)));
  }
  if (roles.includes('reconcile')) {
    upserted += await upsertReconcileSchedulers(rt);
    const wanted = new Set(reconcile.windowDays === 0 ? [] : connections.map((c) => reconcileSchedulerId(c.id)));
    removed.push(...(await removeSchedulers(rt.queues.reconcile, 'reconcile-', wanted)));
  }
  if (roles.includes('upsert')) {
    await upsertSweepScheduler(rt);
    upserted++;
  }
  return { upserted, removed };
}

/**
 * Removes the queue's schedulers whose id starts with `prefix` (pullSchedulerId, reconcileSchedulerId) and
 * is not wanted, with the next job each had queued.
 */
async function removeSchedulers(
  queue: Pick<Queue, 'getJobSchedulers' | 'removeJobScheduler'>,
  prefix: string,
  wanted: ReadonlySet<string>,
): Promise<string[]> {
  const gone: string[] = [];
  for (const s of await queue.getJobSchedulers(0, -1)) {
    if (!s.key.startsWith(prefix) || wanted.has(s.key)) continue;
    await queue.removeJobScheduler(s.key);
    gone.push(s.key);
  }
  return gone;
}

/**
 * What a failed load says: a ConfigError lists each problem on its own `  - path: message` line after a
 * header naming the file (src/config.ts); one-line errors (unreadable, not YAML) are their own summary.
 */
function describeLoadError(e: unknown): { summary: string; errors: string[] } {
  const message = e instanceof Error ? e.message : String(e);
  const [summary = message, ...rest] = message.split('\n');
  const issues = rest.filter((l) => l.startsWith('  - ')).map((l) => l.slice(4));
  return { summary, errors: issues.length ? issues : [message] };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Dotted paths of the leaves (or arrays, whole) that differ between a and b. */
function changedPaths(a: unknown, b: unknown, path: string[] = []): string[] {
  if (isPlainObject(a) && isPlainObject(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => changedPaths(a[k], b[k], [...path, k]));
  }
  return isDeepStrictEqual(a, b) ? [] : [path.join('.')];
}

function valueAt(o: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, k) => (isPlainObject(v) ? v[k] : undefined), o);
}

/** A frozen copy of `o` with `value` at `path`, sharing everything else (already frozen). */
function withValue<T>(o: T, path: readonly string[], value: unknown): T {
  const [k, ...rest] = path as [string, ...string[]];
  const obj = o as Record<string, unknown>;
  const inner = rest.length ? withValue(obj[k], rest, value) : value;
  if (inner === obj[k] || isDeepStrictEqual(inner, obj[k])) return o;
  return Object.freeze({ ...obj, [k]: inner }) as T;
}
