import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route handler returns; the server writes it. `body` undefined = empty response. */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw text body (e.g. XML, plain-text errors) instead of JSON. */
  text?: string;
}

export interface RouteContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined when empty), or the raw text for non-JSON content types. */
  body: unknown;
  rawBody: string;
  req: IncomingMessage;
  res: ServerResponse;
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
}

/** A tiny method + path router: `/billing/contract/feeComponent/ratecard/:contractId`. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, path: string, handler: RouteHandler): this {
    const names: string[] = [];
    const pattern = new RegExp(
      '^' +
        path
          .replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === ':' ? c : `\\${c}`))
          .replace(/:([A-Za-z_]\w*)/g, (_m, n: string) => {
            names.push(n);
            return '([^/]+)';
          }) +
        '/?$',
    );
    this.routes.push({ method: method.toUpperCase(), pattern, names, handler });
    return this;
  }

  /** Finds the route; `allowed` lists the methods of routes whose path matched (for 405). */
  match(
    method: string,
    path: string,
  ): { handler: RouteHandler; params: Record<string, string> } | { allowed: string[] } {
    const allowed: string[] = [];
    for (const r of this.routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      if (r.method !== method) {
        allowed.push(r.method);
        continue;
      }
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => (params[n] = safeDecode(m[i + 1] ?? '')));
      return { handler: r.handler, params };
    }
    return { allowed };
  }
}

/** A malformed escape (`%E0%A4%A`) stays as sent instead of throwing (which would answer 500). */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
