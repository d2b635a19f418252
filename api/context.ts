import type { Runtime } from '../jobs/runtime.js';
import type { ConnectionConfig } from '../src/config.js';
import type { AuditLog } from '../src/pipeline/audit-log.js';
import type { Auditor } from '../operations/audited.js';
import type { Caller } from './auth.js';
import { notFound } from './errors.js';

/** What a route handler gets: the runtime, the audit log, and the caller with what it may see. */
export interface ApiContext {
  rt: Runtime;
  audit: AuditLog;
  /** The caller as the audit log names it (operations/audited.ts). */
  auditor: Auditor;
  caller: Caller;
  /** The connection if the caller may see it; else 404, the same answer as for an id that is not configured. */
  connection(id: string): ConnectionConfig;
  /** Whether the caller may see this connection (configured, and of one of its companies if it is limited). */
  sees(id: string): boolean;
  /** The configured connections the caller may see, in config order. */
  visibleConnections(): ConnectionConfig[];
}

export function apiContext(rt: Runtime, caller: Caller): ApiContext {
  const sees = (id: string): boolean => {
    if (!rt.config.connections.some((c) => c.id === id)) return false;
    return !caller.companies || caller.companies.has(rt.connection(id).billing.company);
  };
  return {
    rt,
    audit: rt.audit,
    auditor: { audit: rt.audit, logger: rt.logger, who: caller.name, via: 'api' },
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
