import type { Logger } from 'pino';
import type { Runtime } from '../jobs/runtime.js';
import type { ConnectionConfig } from '../src/config.js';
import type { AuditLog } from '../src/pipeline/audit-log.js';
import { type AuditedCall, audited, type Auditor, type Told } from '../operations/audited.js';
import type { Caller } from './auth.js';
import { notFound } from './errors.js';

/**
 * What a route handler gets: `rt`, the dependencies its module declares (only what its handlers use; the
 * API's runtime provides them, api/index.ts), the log, the audit log, and the caller with what it may see.
 */
export interface ApiContext<D = unknown> {
  rt: D;
  logger: Logger;
  audit: AuditLog;
  /** The caller as the audit log names it (operations/audited.ts). */
  auditor: Auditor;
  /** Runs a state-changing action of the caller as one audited action (operations/audited.ts): its entry is written before this returns. */
  act<T>(call: AuditedCall, op: () => Promise<T>, tell?: (result: T) => Told): Promise<T>;
  caller: Caller;
  /** The connection if the caller may see it; else 404, the same answer as for an id that is not configured. */
  connection(id: string): ConnectionConfig;
  /** Whether the caller may see this connection (configured, and of one of its companies if it is limited). */
  sees(id: string): boolean;
  /** The configured connections the caller may see, in config order. */
  visibleConnections(): ConnectionConfig[];
}

/**
 * What the router holds and hands each route: the process's runtime. A route module's handlers see only
 * the part of it their module declares (api/route.ts, routesOn).
 */
export type ApiDeps = Runtime;

/** What the context itself reads of the runtime. */
export type ContextDeps = Pick<Runtime, 'config' | 'connection' | 'audit' | 'logger'>;

/** The context of a caller of the API, or (`via: 'console'`) of a console page acting for its session. */
export function apiContext<D extends ContextDeps>(
  rt: D,
  caller: Caller,
  via: 'api' | 'console' = 'api',
): ApiContext<D> {
  const sees = (id: string): boolean => {
    if (!rt.config.connections.some((c) => c.id === id)) return false;
    return !caller.companies || caller.companies.has(rt.connection(id).billing.company);
  };
  const auditor: Auditor = { audit: rt.audit, logger: rt.logger, who: caller.name, via };
  return {
    rt,
    logger: rt.logger,
    audit: rt.audit,
    auditor,
    act: (call, op, tell) => audited(auditor, call, op, tell),
    caller,
    sees,
    connection: (id) => {
      const c = rt.config.connections.find((x) => x.id === id);
      if (!c || !sees(id)) throw notFound(`no connection "${id}"`);
      return c;
    },
    visibleConnections: () => rt.config.connections.filter((c) => sees(c.id)),
  };
}
