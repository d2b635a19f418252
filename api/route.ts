import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import type { ApiRole } from '../src/config.js';
import { outcomeOfStatus } from '../operations/audited.js';
import type { ApiContext, ApiDeps } from './context.js';
import { ApiError, apiHeaders, badInput, sendError, toApiError } from './errors.js';
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
  /** For the audit log: the one record the call was about, when its path does not name it (`entity/erpId`). */
  record?: string;
}

/**
 * One route of the API: its method and path (OpenAPI form, under /api/v1), the least role that may call
 * it, the zod schemas of its parts (the handler's input is what they parsed; the OpenAPI document is
 * written from them), its answer's schema, and for a state-changing route the audit log's name for it.
 */
export interface Route<
  P extends AnyObject,
  Q extends AnyObject,
  B extends AnyObject,
  R extends z.ZodType,
  D = unknown,
> {
  method: 'get' | 'post' | 'patch' | 'delete';
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
  /** A property, not a method: a route needing more than the API provides does not type-check (api/index.ts). */
  handle: (
    ctx: ApiContext<D>,
    input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> },
  ) => Promise<Reply<z.input<R>>>;
}

/** A route with its input and answer types erased, as its module lists it: `D` is what its handler needs. */
export type RouteOn<D> = Route<AnyObject, AnyObject, AnyObject, z.ZodType, D>;

/** A route as the router and the OpenAPI document hold it: its handler given the API's dependencies. */
export type AnyRoute = RouteOn<ApiDeps>;

/** A module's defineRoute: its handlers see `ctx.rt` as `D`, the dependencies the module declares. */
export function routesOn<D>() {
  return <
    P extends AnyObject = typeof EMPTY,
    Q extends AnyObject = typeof EMPTY,
    B extends AnyObject = typeof EMPTY,
    R extends z.ZodType = z.ZodType,
  >(
    route: Route<P, Q, B, R, D>,
  ): RouteOn<D> => route as unknown as RouteOn<D>;
}

/** A route whose handler uses nothing of the runtime. */
export const defineRoute = routesOn<unknown>();

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

/** The parts of a request that passed their schema: only these name what an audit entry is about. */
type Parsed = { params?: Record<string, unknown>; body?: Record<string, unknown> };

/**
 * The connection and record a request is about, from the parts that passed validation only (never the
 * raw path or body: that text is the caller's), and only when the caller may see that connection: a
 * request about another company's connection is recorded without it, so it shows in no company's view.
 */
function subject(
  ctx: ApiContext,
  parsed: Parsed,
  about: { connection?: string; record?: string } = {},
): { connection?: string; record?: string } {
  const p = parsed.params ?? {};
  const named = p.id ?? p.connection ?? parsed.body?.connection;
  const connection = about.connection ?? (typeof named === 'string' ? named : undefined);
  if (!connection || !ctx.sees(connection)) return {};
  const record =
    about.record ??
    (typeof p.entity === 'string' && typeof p.erpId === 'string' ? `${p.entity}/${p.erpId}` : undefined);
  return { connection, ...(record ? { record: record.slice(0, 200) } : {}) };
}

/** A 400's summary for the audit log: where the input was wrong, not the zod text (an unknown key's name is the caller's). */
const invalidAt = (e: ApiError) =>
  `invalid input at ${/^[A-Za-z0-9_.]{1,80}$/.test(e.path ?? '') ? e.path : 'the request'}`;

/**
 * A caller whose role is too low: 403, counted and written to the refusals (apart from the action log,
 * which a refused caller never fills), with the connection only when its path parsed and the caller sees it.
 */
async function refuseRole(ctx: ApiContext<ApiDeps>, route: AnyRoute, req: Request, res: Response): Promise<void> {
  const e = new ApiError(
    403,
    'FORBIDDEN',
    `${ctx.caller.name} (${ctx.caller.role}) may not do this: it needs ${route.role}`,
  );
  const params = (route.params ?? EMPTY).strict().safeParse(req.params ?? {});
  await ctx.audit.refusals.record('role', ctx.caller.name, {
    who: ctx.caller.name,
    action: route.audit ?? `${route.method.toUpperCase()} ${route.path}`,
    ...subject(ctx, params.success ? { params: params.data } : {}),
    outcome: 'refused',
    status: 403,
    detail: e.message,
  });
  sendError(res, e);
}

interface Outcome {
  status: number;
  detail?: string;
  about: { connection?: string; record?: string };
  answer: () => void;
}

/** Input, then the handler: what it answered, for the audit log and the caller. */
async function runRoute(
  ctx: ApiContext<ApiDeps>,
  route: AnyRoute,
  req: Request,
  res: Response,
  parsed: Parsed,
): Promise<Outcome> {
  try {
    if (route.method === 'post' || route.method === 'patch') await readBody(req, res);
    parsed.params = parsePart('params', route.params, req.params) as Record<string, unknown>;
    const query = parsePart('query', route.query, req.query);
    parsed.body = parsePart('body', route.body, req.body) as Record<string, unknown>;
    const input = { params: parsed.params, query, body: parsed.body } as Parameters<AnyRoute['handle']>[1];
    const reply = await route.handle(ctx, input);
    const status = reply.status ?? route.status ?? 200;
    const answer = () => void apiHeaders(res.status(status)).json(reply.body);
    return { status, detail: reply.detail, about: { connection: reply.connection, record: reply.record }, answer };
  } catch (err) {
    const e = toApiError(err);
    if (e.status === 500)
      ctx.logger.error({ err, route: `${route.method.toUpperCase()} ${route.path}` }, 'API request failed');
    const detail = e.status === 400 ? invalidAt(e) : e.message;
    return { status: e.status, detail, about: { connection: e.connection }, answer: () => sendError(res, e) };
  }
}

/**
 * Mounts a route: role, then input, then the handler. A caller whose role is too low is refused and
 * counted (refusals, apart from the action log). Any other call of a state-changing route is one
 * `audited` action (operations/audited.ts, as the command line's): its entry (who, what, which, outcome,
 * the handler's detail) is in Redis before the answer, so a 2xx means both the effect and its record are.
 */
export function mountRoute(router: Router, route: AnyRoute, context: (req: Request) => ApiContext<ApiDeps>): void {
  const handler: RequestHandler = async (req: Request, res: Response) => {
    const ctx = context(req);
    if (!mayAct(ctx.caller.role, route.role)) return refuseRole(ctx, route, req, res);
    const parsed: Parsed = {};
    const run = () => runRoute(ctx, route, req, res, parsed);
    const { answer } = route.audit
      ? await ctx.act({ action: route.audit }, run, ({ status, detail, about }) => ({
          ...subject(ctx, parsed, about),
          outcome: outcomeOfStatus(status),
          status,
          detail,
        }))
      : await run();
    answer();
  };
  router[route.method](expressPath(route.path), handler);
}
