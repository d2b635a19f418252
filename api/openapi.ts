import { z } from 'zod';
import { buildInfo } from '../src/build-info.js';
import { ApiErrorBody } from './errors.js';
import { type AnyRoute, defineRoute } from './route.js';

export const API_BASE = '/api/v1';
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): request parts as they are sent (`input`,
 * a query number is a string with a pattern), answers as they are sent back (`output`). Named schemas
 * (`.meta({ id })`) go to `components.schemas`.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const {
    $schema: _s,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json & {
    $defs?: Json;
  };
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = relink(def);
  return relink(rest);
}

const relink = (s: unknown): Json =>
  JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;

function parameters(route: AnyRoute, components: Json): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const s = jsonSchema(field, 'input', components);
      const description = typeof s.description === 'string' ? s.description : undefined;
      out.push({
        name,
        in: where,
        required: where === 'path' || !field.safeParse(undefined).success,
        schema: s,
        ...(description ? { description } : {}),
      });
    }
  }
  return out;
}

const ERRORS: Record<string, string> = {
  '400': 'bad input: `path` names the field at fault',
  '401': 'no token, or not one of http.tokens',
  '403': "the token's role may not do this",
  '404': 'not found, or a connection of a billing company the token is not limited to',
};

function operation(route: AnyRoute, components: Json): Json {
  const errorRef = { $ref: '#/components/schemas/Error' };
  const status = String(route.status ?? 200);
  const responses: Json = {
    [status]: {
      description: status === '202' ? 'accepted: the work is queued (durably, in Redis)' : 'ok',
      content: { 'application/json': { schema: jsonSchema(route.response, 'output', components) } },
    },
  };
  // A selection replay answers 202 when it replays, 200 for its dry run.
  if (route.audit === 'quarantine.replay-selection')
    responses['202'] = { description: 'replayed', content: (responses['200'] as Json).content };
  for (const [code, description] of Object.entries(ERRORS))
    responses[code] = { description, content: { 'application/json': { schema: errorRef } } };
  if (route.method !== 'get')
    responses['409'] = {
      description: 'conflict (see the message)',
      content: { 'application/json': { schema: errorRef } },
    };
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.path.split('/')[1]!],
    'x-role': route.role,
    ...(route.audit ? { 'x-audit-action': route.audit } : {}),
    parameters: parameters(route, components),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body.strict(), 'input', components) } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the routes, written from the zod schemas they validate with. */
export function openApiDocument(routes: readonly AnyRoute[]): Json {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method] = operation(r, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'erp-sync API',
      version: buildInfo().version,
      description:
        'The operations of `erp-sync` over HTTP: connections, quarantine, record lineage and search, reconciliations, records held for review before write, runs, the audit log. Bearer tokens from `http.tokens` (docs/api.md).',
    },
    servers: [{ url: API_BASE }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: { Error: jsonSchema(ApiErrorBody, 'output', {}), ...components },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}

/** GET /openapi.json: the document of every route, itself included. */
export function openApiRoute(all: () => readonly AnyRoute[]): AnyRoute {
  let doc: Json | undefined;
  return defineRoute({
    method: 'get',
    path: OPENAPI_PATH,
    summary: 'This document: every route of the API, its roles, inputs and answers',
    role: 'viewer',
    response: z.record(z.string(), z.unknown()).describe('an OpenAPI 3.1 document'),
    handle: async () => ({ body: (doc ??= openApiDocument(all())) }),
  });
}
