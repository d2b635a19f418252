import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import type { ApiRole } from '../src/config.js';
import type { AuditOutcome } from '../src/pipeline/audit-log.js';
import type { ApiContext } from './context.js';
import { ApiError, badInput, sendError, toApiError } from './errors.js';
import { mayAct } from './auth.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;
const EMPTY = z.object({});

/** What a handler answers: its body, its status (200 unless said), and for the audit log a short summary. */
export interface Reply<R> {
  status?: number;
  body: R;
  detail?: string;
  /** For the audit log: the connection the call was about, when its path and body do not name it. */
  connection?: string;
}

/**
 * One route of the API: its method and path (OpenAPI form, under /api/v1), the least role that may call
 * it, the zod schemas of its parts (the handler's input is what they parsed; the OpenAPI document is
 * written from them), its answer's schema, and for a state-changing route the audit log's name for it.
 */
export interface Route<P extends AnyObject, Q extends AnyObject, B extends AnyObject, R extends z.ZodType> {
  method: 'get' | 'post';
  path: string;
  summary: string;
  description?: string;
  role: ApiRole;
  params?: P;
  query?: Q;
  body?: B;
  /** The success status and its body's schema. */
  status?: number;
  response: R;
  /** State-changing: every call is written to the audit log under this action. */
  audit?: string;
  handle(
    ctx: ApiContext,
    input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> },
  ): Promise<Reply<z.input<R>>>;
}

/** A route with its types erased, as the router and the OpenAPI document hold it. */
export type AnyRoute = Route<AnyObject, AnyObject, AnyObject, z.ZodType>;

export function defineRoute<
  P extends AnyObject = typeof EMPTY,
  Q extends AnyObject = typeof EMPTY,
  B extends AnyObject = typeof EMPTY,
  R extends z.ZodType = z.ZodType,
>(route: Route<P, Q, B, R>): AnyRoute {
  return route as unknown as AnyRoute;
}

/** JSON bodies are small: a reason, a selection. */
const readJson = express.json({ limit: '16kb' });

/** Reads the JSON body now: only once the caller is known and allowed (nothing of a refused request is parsed). */
const readBody = (req: Request, res: Response): Promise<void> =>
  new Promise((resolve, reject) => readJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())));

/** `/connections/{id}/pause` → `/connections/:id/pause` */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

function parsePart(where: 'params' | 'query' | 'body', schema: AnyObject | undefined, value: unknown): unknown {
  const r = (schema ?? EMPTY).strict().safeParse(value ?? {});
  if (!r.success) throw badInput(where, r.error);
  return r.data;
}

const OUTCOME: Array<[number, AuditOutcome]> = [
  [400, 'invalid'],
  [403, 'refused'],
  [404, 'not-found'],
  [409, 'conflict'],
];
const outcomeOf = (status: number): AuditOutcome =>
  status < 300 ? 'ok' : (OUTCOME.find(([s]) => s === status)?.[1] ?? 'failed');

/** The connection and record a request is about, from its raw parts (also when they did not parse). */
function subject(req: Request): { connection?: string; record?: string } {
  const p = req.params as Record<string, string | undefined>;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const connection = p.id ?? p.connection ?? (typeof b.connection === 'string' ? b.connection : undefined);
  const record = p.entity && p.erpId ? `${p.entity}/${p.erpId}` : undefined;
  return {
    ...(connection ? { connection: connection.slice(0, 80) } : {}),
    ...(record ? { record: record.slice(0, 200) } : {}),
  };
}

/**
 * Mounts a route: role, then input, then the handler; a state-changing route's call is appended to the
 * audit log (who, what, which, outcome) before it is answered, so a 2xx means both the effect and its
 * record are in Redis.
 */
export function mountRoute(router: Router, route: AnyRoute, context: (req: Request) => ApiContext): void {
  const handler: RequestHandler = async (req: Request, res: Response) => {
    const ctx = context(req);
    let status = 500;
    let detail: string | undefined;
    let about: string | undefined;
    let answer: () => void;
    try {
      if (!mayAct(ctx.caller.role, route.role))
        throw new ApiError(
          403,
          'FORBIDDEN',
          `${ctx.caller.name} (${ctx.caller.role}) may not do this: it needs ${route.role}`,
        );
      if (route.method === 'post') await readBody(req, res);
      const input = {
        params: parsePart('params', route.params, req.params),
        query: parsePart('query', route.query, req.query),
        body: parsePart('body', route.body, req.body),
      } as Parameters<AnyRoute['handle']>[1];
      const reply = await route.handle(ctx, input);
      status = reply.status ?? route.status ?? 200;
      detail = reply.detail;
      about = reply.connection;
      answer = () => void res.status(status).set('cache-control', 'no-store').json(reply.body);
    } catch (err) {
      const e = toApiError(err);
      if (e.status === 500)
        ctx.rt.logger.error({ err, route: `${route.method.toUpperCase()} ${route.path}` }, 'API request failed');
      status = e.status;
      detail = e.message;
      about = e.connection;
      answer = () => sendError(res, e);
    }
    if (route.audit) {
      const entry = {
        who: ctx.caller.name,
        action: route.audit,
        ...subject(req),
        ...(about ? { connection: about } : {}),
        outcome: outcomeOf(status),
        status,
        ...(detail ? { detail: detail.slice(0, 500) } : {}),
      };
      await ctx.audit.append(entry);
      ctx.rt.logger.info(entry, `api: ${route.audit} ${entry.outcome}`);
    }
    answer();
  };
  router[route.method](expressPath(route.path), handler);
}
