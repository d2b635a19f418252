import type { Got, Response } from 'got';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  AuthError,
  CredentialsRefusedError,
  DataContractError,
  formatZodIssues,
  ParkedError,
  RateLimitedError,
  SyncError,
  TransientError,
} from '../errors/index.js';
import { createHttpClient } from './create-http-client.js';
import { networkError } from './network-error.js';
import { parseRetryAfter } from './retry-after.js';
import { decideQuotaSignal, decideRateLimited, type QuotaSignal } from '../waits/vendor-waits.js';
import { DEFAULT_MAX_IN_PLACE_WAIT_MS, type RetryPolicy, withRetry } from './with-retry.js';

/** Waits for a quota slot; returns the release function (concurrency). */
export type AcquireSlot = (signal?: AbortSignal) => Promise<() => void>;
export type ResponseObserver = (info: { vendor: string; endpoint: string; status: number; durationMs: number }) => void;
export type Headers = Record<string, string | string[] | undefined>;

export interface ErrorContext {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  operation: string;
  retryAfterMs?: number;
}

/**
 * A vendor's error table: status + vendor code → one of our error classes with a human message.
 * Return undefined for a success (e.g. Zoho's `code: 0`) — called for every response with status >= 300
 * and for 2xx bodies that carry an error code.
 */
export type ErrorTable = (ctx: ErrorContext) => SyncError | undefined;

export interface AuthProvider {
  /** Returns the access token; `stale` = the token that was just refused, forcing a refresh. */
  token(stale?: string): Promise<string>;
  /** Authorization header value for a token. */
  header(token: string): string;
  /**
   * Runs once before the client's first call (before a quota slot is taken, so also while the connection
   * is parked): the config's credentials take their place. `replaced`: they replaced the stored ones (a
   * re-consent).
   */
  prepare?(): Promise<'replaced' | 'unchanged'>;
}

export interface VendorClientOptions {
  vendor: string;
  prefixUrl: string;
  auth?: AuthProvider;
  errorTable: ErrorTable;
  /** Headers on every request (tenant selectors such as xero-tenant-id). */
  headers?: Record<string, string>;
  /** Query parameters on every request (Zoho's organization_id, QBO's minorversion). */
  query?: Record<string, string>;
  retry?: RetryPolicy;
  timeoutMs?: number;
  acquire?: AcquireSlot;
  onResponse?: ResponseObserver;
  /** The connector's reading of its rate-limit headers (classification only; src/waits/vendor-waits.ts decides). */
  readQuota?: (headers: Headers) => QuotaSignal[];
  /** Remaining quota per window, as the vendor reports it (metrics). */
  onQuota?: (window: 'minute' | 'day', remaining: number) => void;
  /** Parks the connection until an instant (every process honours it). Without it, long waits fail the call. */
  park?: (untilMs: number) => Promise<void>;
  /**
   * The vendor refused the refresh token (CredentialsRefusedError from the token store): called once per
   * refused call, before the error is thrown on, so the pipeline marks the connection and parks it.
   */
  onCredentialsRefused?: (error: CredentialsRefusedError) => Promise<void>;
  /** The config's credentials replaced the stored ones (a re-consent): the pipeline lifts the park a refusal set. */
  onCredentialsReplaced?: () => Promise<void>;
  /** Names the connection in ParkedError and logs. @defaultValue the vendor */
  connectionId?: string;
  logger?: Logger;
  now?: () => number;
}

/**
 * Rate-limit headers → quota reports and, where src/waits/vendor-waits.ts says so, a park. A failed park is
 * logged, never thrown: the response itself succeeded.
 */
export function quotaObserver(
  options: Pick<VendorClientOptions, 'readQuota' | 'onQuota' | 'park' | 'logger' | 'now' | 'vendor'>,
): (headers: Headers) => void {
  const now = options.now ?? Date.now;
  return (headers) => {
    for (const signal of options.readQuota?.(headers) ?? []) {
      options.onQuota?.(signal.window, signal.remaining);
      const decision = decideQuotaSignal(signal, now());
      if (decision?.kind !== 'park' || !options.park) continue;
      options.logger?.warn(
        { until: new Date(decision.untilMs).toISOString() },
        `${options.vendor} quota spent; parking the connection until the reset`,
      );
      options
        .park(decision.untilMs)
        .catch((err: unknown) => options.logger?.error({ err }, 'could not park the connection'));
    }
  };
}

export interface VendorRequest<T extends z.ZodTypeAny> {
  method?: 'GET' | 'POST';
  /** Path relative to prefixUrl, no leading slash. */
  path: string;
  /** Endpoint label for metrics and errors, e.g. "GET /invoices/{id}" (bounded cardinality). */
  endpoint: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Form-encoded body (token endpoints). */
  form?: Record<string, string>;
  schema: T;
  signal?: AbortSignal;
  /** Skip auth (token endpoints). */
  anonymous?: boolean;
}

/** A document read as bytes (VendorClient.download): a GET whose answer is `accept` (e.g. application/pdf). */
export interface DownloadRequest {
  path: string;
  endpoint: string;
  accept: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  anonymous?: undefined;
}

/**
 * The shared HTTP client of every connector: got with no retries, auth hook with one forced refresh on
 * 401, the vendor's error table, rate-limit headers read on every response, quota slots, zod-validated
 * responses, p-retry for retryable errors (honouring Retry-After up to a few seconds).
 */
export class VendorClient {
  private readonly http: Got;
  private readonly observeQuota: (headers: Headers) => void;

  constructor(readonly options: VendorClientOptions) {
    this.http = createHttpClient({
      prefixUrl: options.prefixUrl.replace(/\/+$/, ''),
      timeoutMs: options.timeoutMs,
      headers: options.headers,
    });
    this.observeQuota = quotaObserver(options);
  }

  private prepared?: Promise<void>;

  get vendor(): string {
    return this.options.vendor;
  }

  /**
   * One logical call: p-retry waits in place for what src/waits/vendor-waits.ts says to wait for; a wait it says
   * to park for parks the connection and throws ParkedError (the job is delayed, not failed).
   */
  async request<T extends z.ZodTypeAny>(req: VendorRequest<T>): Promise<z.infer<T>> {
    return this.call(req, () => this.once(req));
  }

  /**
   * One document as the vendor serves it (a PDF): the same auth, quota slot, retries, parks and error
   * table as `request`, the body kept as bytes. `accept` is the type asked for; a success of another
   * type is a DataContractError (a vendor that answers JSON where a PDF was asked).
   */
  async download(req: DownloadRequest): Promise<{ contentType: string; body: Buffer }> {
    return this.call(req, () => this.onceBytes(req));
  }

  /** A logical call around `attempt`: credentials prepared once, retries, and a long wait turned into a park. */
  private async call<R>(
    req: Pick<VendorRequest<z.ZodTypeAny>, 'anonymous' | 'signal' | 'endpoint'>,
    attempt: () => Promise<R>,
  ): Promise<R> {
    if (this.options.auth?.prepare && !req.anonymous) {
      this.prepared ??= this.options.auth.prepare().then(
        async (outcome) => {
          if (outcome === 'replaced') await this.options.onCredentialsReplaced?.();
        },
        (err: unknown) => {
          this.prepared = undefined;
          throw err;
        },
      );
      await this.prepared;
    }
    try {
      return await withRetry(attempt, {
        retryRateLimited: true,
        ...this.options.retry,
        signal: req.signal ?? this.options.retry?.signal,
      });
    } catch (err) {
      if (err instanceof CredentialsRefusedError) {
        await this.options
          .onCredentialsRefused?.(err)
          .catch((e: unknown) => this.options.logger?.error({ err: e }, 'could not mark the refused credentials'));
        throw err;
      }
      const { park } = this.options;
      if (!(err instanceof RateLimitedError) || !park) throw err;
      const now = (this.options.now ?? Date.now)();
      const decision = decideRateLimited(err, this.options.retry?.maxRetryAfterMs ?? DEFAULT_MAX_IN_PLACE_WAIT_MS, now);
      if (decision.kind !== 'park') throw err;
      await park(decision.untilMs);
      const connection = this.options.connectionId ?? this.options.vendor;
      this.options.logger?.warn(
        { until: new Date(decision.untilMs).toISOString(), endpoint: req.endpoint, scope: err.scope },
        `${this.options.vendor} asked to wait longer than is worth holding a worker for: connection parked`,
      );
      throw new ParkedError(connection, decision.untilMs, {
        cause: err,
        source: err.source,
        operation: err.operation,
        why: err.scope === 'day' ? 'vendor daily limit' : 'vendor rate limit',
      });
    }
  }

  /** One attempt: the exchange, then the vendor's error table, one forced refresh on 401, and the schema. */
  private async once<T extends z.ZodTypeAny>(req: VendorRequest<T>, stale?: string): Promise<z.infer<T>> {
    const { res, token } = await this.exchange(req, stale);
    const text = String(res.body);
    const body = jsonBody(text);
    if (this.refused(req, res, text, body, { token, stale }) === 'refresh') return this.once(req, token);
    return this.parsed(req, body);
  }

  /** One attempt of a download: like `once`, the body kept as bytes and its type checked. */
  private async onceBytes(req: DownloadRequest, stale?: string): Promise<{ contentType: string; body: Buffer }> {
    const { res, token } = await this.exchange(
      { ...req, headers: { ...req.headers, accept: req.accept } },
      stale,
      true,
    );
    const bytes = Buffer.from(res.body as Uint8Array);
    const contentType = String(res.headers['content-type'] ?? '');
    if (res.statusCode >= 300 || !contentType.toLowerCase().startsWith(req.accept)) {
      const text = bytes.toString('utf8');
      if (this.refused(req, res, text, jsonBody(text), { token, stale }) === 'refresh')
        return this.onceBytes(req, token);
      throw new DataContractError(
        `${this.options.vendor} ${req.endpoint}: expected ${req.accept}, got ${contentType || 'no content type'}`,
        {
          source: this.options.vendor,
          operation: req.endpoint,
        },
      );
    }
    return { contentType, body: bytes };
  }

  /**
   * The vendor's error table on a response: throws its error, or a TransientError for a status it does
   * not classify; 'refresh' asks for one repeat with a forced token refresh (a 401 the first time: the
   * access token may have expired between our check and the call; not a 403: a wrong tenant or a revoked
   * connection is not cured by a new token). Undefined: a success.
   */
  private refused(
    req: { endpoint: string },
    res: Response<unknown>,
    text: string,
    body: unknown,
    { token, stale }: { token?: string; stale?: string },
  ): 'refresh' | undefined {
    const { vendor } = this.options;
    const error = this.options.errorTable({
      status: res.statusCode,
      body,
      text: text.slice(0, 500),
      headers: res.headers,
      operation: req.endpoint,
      retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    });
    if (error) {
      if (
        error instanceof AuthError &&
        res.statusCode === 401 &&
        token !== undefined &&
        stale === undefined &&
        this.options.auth
      )
        return 'refresh';
      throw error;
    }
    if (res.statusCode >= 300) {
      throw new TransientError(`${vendor} ${req.endpoint} → ${res.statusCode} not classified`, {
        status: res.statusCode,
        source: vendor,
        operation: req.endpoint,
      });
    }
    return undefined;
  }

  /**
   * One HTTP exchange under a quota slot, with the access token (`stale`: the one just refused, which
   * forces a refresh); reports its status and duration, and reads the rate-limit headers. Transport
   * errors become network errors; errors already classified keep their class.
   */
  private async exchange(
    req: Omit<VendorRequest<z.ZodTypeAny>, 'schema'>,
    stale?: string,
    bytes = false,
  ): Promise<{ res: Response<string | Uint8Array>; token?: string }> {
    const { vendor } = this.options;
    const release = this.options.acquire ? await this.options.acquire(req.signal) : () => {};
    let token: string | undefined;
    let res: Response<string | Uint8Array>;
    const started = performance.now();
    try {
      const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
      if (this.options.auth && !req.anonymous) {
        token = await this.options.auth.token(stale);
        headers.authorization = this.options.auth.header(token);
      }
      res = await this.http(req.path, {
        method: req.method ?? 'GET',
        headers,
        searchParams: this.searchParams(req),
        json: req.body,
        form: req.form,
        signal: req.signal,
        ...(bytes ? { responseType: 'buffer' as const } : {}),
      });
    } catch (err) {
      this.options.onResponse?.({ vendor, endpoint: req.endpoint, status: 0, durationMs: performance.now() - started });
      if (req.signal?.aborted) throw req.signal.reason ?? err;
      // Classified errors (e.g. from the auth provider's token refresh: 429, a malformed token response)
      // keep their class; only raw transport errors become network errors.
      if (err instanceof SyncError) throw err;
      throw networkError(err, vendor, req.endpoint);
    } finally {
      release();
    }
    this.options.onResponse?.({
      vendor,
      endpoint: req.endpoint,
      status: res.statusCode,
      durationMs: performance.now() - started,
    });
    this.observeQuota(res.headers);
    return { res, token };
  }

  /** The client's query parameters and the request's; undefined values left out. */
  private searchParams(req: Pick<VendorRequest<z.ZodTypeAny>, 'query'>): URLSearchParams {
    const searchParams = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...(this.options.query ?? {}), ...(req.query ?? {}) })) {
      if (v !== undefined) searchParams.set(k, String(v));
    }
    return searchParams;
  }

  /** The body as the request's schema reads it; a body that does not match is a DataContractError. */
  private parsed<T extends z.ZodTypeAny>(req: VendorRequest<T>, body: unknown): z.infer<T> {
    const { vendor } = this.options;
    const parsed = req.schema.safeParse(body);
    if (!parsed.success) {
      throw new DataContractError(`${vendor} ${req.endpoint}: unexpected response`, {
        issues: formatZodIssues(parsed.error).slice(0, 10),
        source: vendor,
        operation: req.endpoint,
      });
    }
    return parsed.data;
  }
}

/** A response body as JSON; undefined when empty or not JSON (the error table reads the text then). */
function jsonBody(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
