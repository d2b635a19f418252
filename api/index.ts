import express, { type Express, type Request } from 'express';
import type { Runtime } from '../jobs/runtime.js';
import { unexpiredTokens } from '../src/auth/token-expiry.js';
import { credentialGuardOf } from '../src/http/credential-guard.js';
import { auditRoutes } from './audit.js';
import { authorizationRoutes } from './authorizations.js';
import { authenticate } from './auth.js';
import { connectionRoutes } from './connections.js';
import { apiContext } from './context.js';
import { ApiError, apiErrorHandler, sendError } from './errors.js';
import { API_BASE, openApiRoute } from './openapi.js';
import { quarantineRoutes } from './quarantine.js';
import { reconciliationRoutes } from './reconciliations.js';
import { recordRoutes } from './records.js';
import { reviewRoutes } from './review.js';
import { type AnyRoute, mountRoute } from './route.js';
import { runRoutes } from './runs.js';
import { storedConnectionRoutes } from './stored-connections.js';
import { trendRoutes } from './trends.js';

export { API_BASE } from './openapi.js';

/** Every route of the API, the OpenAPI document's own included. */
export function apiRoutes(): AnyRoute[] {
  const routes: AnyRoute[] = [...connectionRoutes, ...quarantineRoutes, ...recordRoutes, ...runRoutes, ...auditRoutes];
  routes.push(...reconciliationRoutes);
  routes.push(...authorizationRoutes);
  routes.push(...reviewRoutes);
  routes.push(...trendRoutes);
  routes.push(...storedConnectionRoutes);
  routes.push(openApiRoute(() => routes));
  return routes;
}

/**
 * The HTTP API under /api/v1 (docs/api.md): every request authenticated first (401), then its role
 * (403), then its input (400 with the path), then the operation. JSON in, JSON out, one error shape.
 */
export function httpApi(rt: Runtime): Express {
  const router = express.Router({ caseSensitive: true, strict: true });
  const context = (req: Request) => apiContext(rt, req.caller!);
  for (const route of apiRoutes()) mountRoute(router, route, context);
  router.use((req, res) =>
    sendError(res, new ApiError(404, 'NOT_FOUND', `no route ${req.method} ${API_BASE}${req.path}`)),
  );
  router.use(apiErrorHandler);
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.disable('x-powered-by');
  app.use(
    API_BASE,
    authenticate(() => unexpiredTokens(rt.config.http), rt.consoleSessions, credentialGuardOf(rt)),
    router,
  );
  app.locals.mounted = mountedOn(router);
  return app;
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** What the router serves, read back from it (`GET /connections/:id`): the OpenAPI test holds the document to it. */
function mountedOn(router: express.Router): string[] {
  return (router.stack as RouterLayer[]).flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
      : [],
  );
}

/** The routes an app made by httpApi serves, as `METHOD /express/:path` under /api/v1. */
export const mountedRoutes = (app: Express): string[] => app.locals.mounted as string[];

/** The worker's extra routes: the API, then `others` (the queue UI) for what it does not answer. */
export function withApi(rt: Runtime, others: Express): Express {
  const app = httpApi(rt);
  app.use(others);
  return app;
}
