import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { ApiRole, AppConfig } from '../src/config.js';
import { ApiError, sendError } from './errors.js';

/** Who sent a request: the token's name (what logs and the audit log show), its role, its companies. */
export interface Caller {
  name: string;
  role: ApiRole;
  /** Billing companies it is limited to; undefined: every company. */
  companies?: ReadonlySet<string>;
}

/** The name `http.adminToken` goes by in the audit log. */
export const ADMIN_TOKEN_NAME = 'adminToken';

const RANK: Record<ApiRole, number> = { viewer: 0, operator: 1, admin: 2 };

/** True when `role` may do what `needed` may. */
export const mayAct = (role: ApiRole, needed: ApiRole): boolean => RANK[role] >= RANK[needed];

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The caller a presented token belongs to, or undefined. Every configured token is compared, in
 * constant time each (digests of equal length), and the loop never stops early: the time taken says
 * nothing about which token, or how much of one, matched.
 */
export function callerOf(http: AppConfig['http'], presented: string): Caller | undefined {
  const p = digest(presented);
  let found: Caller | undefined;
  const candidates: Array<{ token: string; caller: Caller }> = http.tokens.map((t) => ({
    token: t.token,
    caller: { name: t.name, role: t.role, ...(t.companies ? { companies: new Set(t.companies) } : {}) },
  }));
  if (http.adminToken) candidates.push({ token: http.adminToken, caller: { name: ADMIN_TOKEN_NAME, role: 'admin' } });
  for (const c of candidates) if (timingSafeEqual(p, digest(c.token)) && !found) found = c.caller;
  return found;
}

/** The credentials of RFC 6750 section 2.1 (`Authorization: Bearer <token>`, scheme case-insensitive), if any. */
function bearer(req: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.get('authorization')?.trim() ?? '')?.[1]?.trim();
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the API's authentication, before anything else of the request is read. */
    caller?: Caller;
  }
}

/**
 * The API's first handler: a request without a known bearer token answers 401 before its body is read
 * or its path matched. The tokens are read from the running config at each request (a change of
 * `http.tokens` takes a restart today: app/reload-config.ts).
 */
export function authenticate(http: () => AppConfig['http']): RequestHandler {
  return (req, res, next) => {
    const presented = bearer(req);
    const caller = presented === undefined ? undefined : callerOf(http(), presented);
    if (!caller) {
      res.set('www-authenticate', 'Bearer realm="erp-sync api"');
      return sendError(
        res,
        new ApiError(
          401,
          'UNAUTHORIZED',
          presented === undefined
            ? 'send Authorization: Bearer <token> (http.tokens in the config)'
            : 'the token is not one of http.tokens',
        ),
      );
    }
    req.caller = caller;
    next();
  };
}
