import pino, { type DestinationStream, type Logger } from 'pino';
import { SyncError } from '../errors/index.js';

/**
 * The root logger. JSON by default, pretty on a TTY. Secrets are redacted twice: by path (pino's
 * `redact`, cheap, top levels) and by key name at any depth (`scrubSecrets`, for a config, headers or a
 * token response logged wherever they sit). Errors go through `serializeError`, which whitelists fields:
 * a got error's `options` hold every request header (keys, bearer tokens) and must never be serialised;
 * an error nested anywhere in a log object is serialised the same way.
 */
export const REDACT_PATHS = [
  'apiKey',
  'attachmentKey',
  'accessToken',
  'refreshToken',
  'clientSecret',
  'password',
  'authorization',
  'headers.authorization',
  'headers["x-service-signature"]',
  'headers["x-service-attachment-upload-signature"]',
  '*.apiKey',
  '*.attachmentKey',
  '*.accessToken',
  '*.refreshToken',
  '*.access_token',
  '*.refresh_token',
  '*.clientSecret',
  '*.client_secret',
  '*.password',
  '*.authorization',
  'adminToken',
  '*.adminToken',
  'documentLinkKey',
  '*.documentLinkKey',
];

/**
 * Keys whose values are secrets wherever they appear, compared without case, `-` or `_`
 * (clientSecret = client_secret, Authorization = authorization, x-service-signature = xServiceSignature).
 */
const SECRET_KEYS = new Set(
  [
    'apiKey',
    'api_key',
    'x-api-key',
    'attachmentKey',
    'accessToken',
    'refreshToken',
    'idToken',
    'token',
    'adminToken',
    'documentLinkKey',
    'clientSecret',
    'secret',
    'password',
    'privateKey',
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-service-signature',
    'x-service-attachment-upload-signature',
  ].map((k) => normalizeKey(k)),
);
const CENSOR = '[Redacted]';
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;

function normalizeKey(k: string): string {
  return k.toLowerCase().replace(/[-_]/g, '');
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `redis://user:pass@host` → `redis://[Redacted]@host`, anywhere in a string. */
export function redactUrlCredentials(s: string): string {
  return s.includes('@') && s.includes('://') ? s.replace(URL_CREDENTIALS, `$1${CENSOR}@`) : s;
}

/**
 * A copy of `value` with every secret-named key censored at any depth, credentials removed from URLs
 * (`redis://user:pass@host` → `redis://[Redacted]@host`) and errors serialised by `serializeError`.
 * Returns `value` itself when nothing needed changing (no copy on the common path).
 */
export function scrubSecrets(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactUrlCredentials(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return scrubSecrets(serializeError(value), depth, seen);
  if (seen.has(value)) return '[Circular]';
  if (depth > 12) return '[Too deep]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      value.forEach((v, i) => {
        const s = scrubSecrets(v, depth + 1, seen);
        if (s !== v) (out ??= [...value])[i] = s;
      });
      return out ?? value;
    }
    if (!isPlainObject(value)) {
      const toJSON = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const json = toJSON.call(value);
        return json === value ? value : scrubSecrets(json, depth + 1, seen);
      }
      if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) return value;
    }
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const s =
        SECRET_KEYS.has(normalizeKey(k)) && v !== undefined && v !== null && v !== ''
          ? CENSOR
          : scrubSecrets(v, depth + 1, seen);
      if (s !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = s;
    }
    return out ?? value;
  } finally {
    seen.delete(value);
  }
}

export function serializeError(err: unknown): Record<string, unknown> {
  if (err instanceof SyncError) return { type: err.name, ...err.toJSON(), stack: err.stack };
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown };
    return { type: e.name, message: e.message, code: typeof e.code === 'string' ? e.code : undefined, stack: e.stack };
  }
  // Already serialised (e.g. `{ err: serializeError(e) }`): keep it; the log formatter scrubbed it.
  if (err !== null && typeof err === 'object' && isPlainObject(err)) return err as Record<string, unknown>;
  return { message: String(err) };
}

export interface LoggerOptions {
  level?: string;
  /** 'json' | 'pretty'; default: pretty when stdout is a TTY. */
  format?: 'json' | 'pretty';
  destination?: DestinationStream;
  /** Log to stderr (commands whose stdout is their output, e.g. `--json`). */
  stderr?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.stderr ? process.stderr : process.stdout;
  const pretty = (options.format ?? (out.isTTY ? 'pretty' : 'json')) === 'pretty' && !options.destination;
  const destination = options.destination ?? (options.stderr ? pino.destination({ fd: 2, sync: true }) : undefined);
  const base = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: { err: serializeError, error: serializeError },
    formatters: {
      log: (obj: Record<string, unknown>) => scrubSecrets(obj) as Record<string, unknown>,
      bindings: (bindings: Record<string, unknown>) => scrubSecrets(bindings) as Record<string, unknown>,
    },
    base: { service: 'erp-sync' },
  };
  const logger = pretty
    ? pino({
        ...base,
        transport: {
          target: 'pino-pretty',
          options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', destination: options.stderr ? 2 : 1 },
        },
      })
    : destination
      ? pino(base, destination)
      : pino(base);
  // pino applies formatters.bindings to the root's bindings only; scrub every child's bindings too
  // (children inherit this own property, so grandchildren go through it as well).
  const child = logger.child;
  logger.child = function (this: Logger, bindings: Record<string, unknown>, opts?: object) {
    return child.call(this, scrubSecrets(bindings) as Record<string, unknown>, opts);
  } as Logger['child'];
  return logger;
}
