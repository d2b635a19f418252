import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { startService, type Service } from '../../app/service.js';
import { validateSettings } from '../../connectors/registry.js';
import { AppConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { ACME, GLOBEX, type Harness, type HarnessOptions, startHarness } from '../support/harness.js';

export { ACME, GLOBEX };

/** The tokens of the API under test, by what they may do. Random per run, like secrets from the environment. */
export function apiTokens() {
  const t = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
  return {
    admin: { name: 'ops-admin', token: t('adm'), role: 'admin' as const },
    operator: { name: 'ops-operator', token: t('opr'), role: 'operator' as const },
    viewer: { name: 'finance-viewer', token: t('vwr'), role: 'viewer' as const },
    /** An operator limited to globex's connections. */
    globex: { name: 'globex-operator', token: t('glx'), role: 'operator' as const, companies: [GLOBEX.company] },
    /** `http.adminToken`: still an admin token of the API. */
    legacyAdmin: t('legacy-admin'),
  };
}
export type ApiTokens = ReturnType<typeof apiTokens>;

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A real worker (`startService`: runtime, pull and upsert workers, the HTTP server with the API) on the
 * two-companies setup (one billing emulator, two Zoho emulators on loopback, the test Redis), its config
 * carrying `http.tokens`; and a fetch helper for the API.
 */
export async function startApi(
  name: string,
  more: {
    /** Further harness options (extra connections, ...). */
    harness?: Partial<HarnessOptions>;
    /** Where the worker's log lines go (JSON, one per entry, at info and above). @defaultValue nowhere */
    logLines?: string[];
    /** Further `http` settings (publicUrl, ...). */
    http?: Record<string, unknown>;
    /** Further `http.tokens`, after the harness's own. */
    tokens?: Array<Record<string, unknown>>;
    /** The port the worker listens on. @defaultValue any free one */
    httpPort?: number;
    /** `connections[].review` by connection id (review before write). */
    review?: Record<string, unknown>;
    /** Further `billing` settings (`timeZone`, ...). */
    billing?: Record<string, unknown>;
  } = {},
) {
  const tc: Harness = await startHarness({ name, companies: 'two', invoices: 12, ...more.harness });
  const tokens = apiTokens();
  const base = more.review || more.billing ? reparsed(tc, more.review ?? {}, more.billing ?? {}) : tc.configWith();
  // The http section parsed by the config schema itself (the rest as the two-companies config has it).
  const http = AppConfig.shape.http.parse({
    host: '127.0.0.1',
    adminToken: tokens.legacyAdmin,
    tokens: [tokens.admin, tokens.operator, tokens.viewer, tokens.globex, ...(more.tokens ?? [])],
    ...more.http,
  });
  const config = { ...base, http } as AppConfig;
  const logger: Logger = more.logLines
    ? createLogger({ level: 'info', format: 'json', destination: linesInto(more.logLines) })
    : createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' });
  let service: Service;
  try {
    service = await startService(config, logger, { roles: ['pull', 'upsert'], httpPort: more.httpPort ?? 0 });
  } catch (e) {
    await tc.close();
    throw e;
  }
  const call = async <T = any>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    token?: string,
    body?: unknown,
    raw?: string,
  ): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    // A failed request names itself: "fetch failed" alone does not say which of a test's calls it was.
    const res = await fetch(`${service.httpUrl}/api/v1${path}`, {
      method,
      headers,
      ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).catch((e: unknown) => {
      const cause = (e as { cause?: { message?: string } }).cause?.message;
      throw new Error(`${method} /api/v1${path}: ${(e as Error).message}${cause ? ` (${cause})` : ''}`, { cause: e });
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  };
  return {
    tc,
    tokens,
    service,
    config,
    url: service.httpUrl,
    get: <T = any>(path: string, token?: string) => call<T>('GET', path, token),
    post: <T = any>(path: string, token?: string, body?: unknown) => call<T>('POST', path, token, body),
    postRaw: (path: string, token: string, raw: string) => call('POST', path, token, undefined, raw),
    patch: <T = any>(path: string, token?: string, body?: unknown) => call<T>('PATCH', path, token, body),
    delete: <T = any>(path: string, token?: string) => call<T>('DELETE', path, token),
    async close() {
      await service.stop().catch(() => {});
      await tc.close();
    },
  };
}
/** A log destination that appends each line written to `lines`. */
function linesInto(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
}

/** The harness's config with `review` set on the connections named and `billing` merged, parsed as the worker's would be. */
function reparsed(tc: Harness, review: Record<string, unknown>, billing: Record<string, unknown>): AppConfig {
  const raw = structuredClone(tc.rawConfig) as {
    connections: Array<Record<string, unknown>>;
    billing: Record<string, unknown>;
  };
  for (const c of raw.connections) if (c.id && String(c.id) in review) c.review = review[String(c.id)];
  Object.assign(raw.billing, billing);
  return parseConfig(raw, tc.secretEnv, validateSettings, 'api review config');
}

export type ApiUnderTest = Awaited<ReturnType<typeof startApi>>;
