import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CreateClientOptions } from '../../src/connector/types.js';
import { RejectedError, SyncError } from '../../src/errors/index.js';
import { connectionHooks } from '../../src/http/connection-hooks.js';
import { networkError } from '../../src/http/network-error.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import { type RetryPolicy, withRetry } from '../../src/http/with-retry.js';
import { errorTable, lineError } from './error-table.js';
import { readQuota } from './rate-limit.js';
import type { Settings } from './settings.js';
import { answerParser, type TallyObject } from './streams/answer.js';
import { collectionRequest, type CollectionSpec } from './streams/envelope.js';

/**
 * The per-connection TallyPrime client: the shared VendorClient's options (quota slot, response observer,
 * timeout, error table), with the one call Tally has — `POST /` with an XML envelope — made here so that
 * the answer is streamed into the parser (streams/answer.ts) instead of being buffered whole as text.
 *
 * Retry budget of one call (p-retry, the only in-process retry owner):
 *
 * | error                                   | here                                      | worst case   |
 * |-----------------------------------------|-------------------------------------------|--------------|
 * | refused/reset connection, 5xx, timeout  | 1 + 3 attempts, backoff 0.5 s → 4 s       | 4 HTTP calls |
 * | company not loaded (LINEERROR)          | the same: someone may be opening it       | 4 HTTP calls |
 * | any other LINEERROR, other HTTP status  | not retried: the read fails               | 1 HTTP call  |
 *
 * An attempt that fails mid-answer hands over nothing: the objects of one answer are given to the
 * caller only once the answer is complete, so a retry never duplicates or half-delivers a range.
 */
const RETRY: RetryPolicy = { retries: 3, minTimeoutMs: 500, maxTimeoutMs: 4_000, maxRetryTimeMs: 30_000 };

export interface ClientOptions extends CreateClientOptions<Settings> {
  /** Overrides the retry policy's backoffs (tests use short ones). */
  retry?: RetryPolicy;
}

export class TallyClient extends VendorClient {
  constructor(
    options: ConstructorParameters<typeof VendorClient>[0],
    private readonly tally: { url: string; encoding: Settings['encoding']; company: string },
  ) {
    super(options);
  }

  /**
   * One export request (https://help.tallysolutions.com/integration-with-tallyprime/): the objects of the
   * answer whose tag is one of `objectTags`, parsed as the bytes arrive.
   */
  async exportCollection(
    spec: CollectionSpec,
    objectTags: readonly string[],
    signal?: AbortSignal,
  ): Promise<TallyObject[]> {
    const endpoint = `Export ${spec.type} collection`;
    const body = collectionRequest(spec);
    return withRetry(() => this.exchangeXml(body, objectTags, endpoint, signal), {
      ...this.options.retry,
      signal,
    });
  }

  private async exchangeXml(
    xml: string,
    objectTags: readonly string[],
    endpoint: string,
    signal?: AbortSignal,
  ): Promise<TallyObject[]> {
    const { vendor } = this.options;
    const release = this.options.acquire ? await this.options.acquire(signal) : () => {};
    const started = performance.now();
    let status = 0;
    try {
      const utf16 = this.tally.encoding === 'utf-16';
      const payload = utf16
        ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])
        : Buffer.from(xml);
      const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
      const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
      const res = await post(this.tally.url, payload, utf16 ? 'utf-16' : 'utf-8', abort);
      status = res.statusCode ?? 0;
      if (status !== 200) {
        const text = await firstBytes(res, 500);
        const error = errorTable({ status, body: undefined, text, headers: res.headers, operation: endpoint });
        throw (
          error ??
          new RejectedError(`${vendor} ${endpoint}: HTTP ${status}`, { status, source: vendor, operation: endpoint })
        );
      }
      const charset = /charset=([\w-]+)/i.exec(res.headers['content-type'] ?? '')?.[1]?.toLowerCase();
      const parser = answerParser(charset?.startsWith('utf-16') ? 'utf-16le' : 'utf-8', objectTags);
      let sniffed = false;
      for await (const chunk of res) {
        const bytes = chunk as Buffer;
        // A UTF-16LE BOM names the encoding whatever the header says.
        if (!sniffed && bytes.length >= 2) {
          sniffed = true;
          if (bytes[0] === 0xff && bytes[1] === 0xfe && !charset?.startsWith('utf-16')) {
            return await this.restartAsUtf16(res, bytes, objectTags, endpoint);
          }
        }
        parser.write(bytes);
      }
      return this.finish(parser.end(), endpoint);
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      if (err instanceof SyncError) throw err;
      throw networkError(err, vendor, endpoint);
    } finally {
      release();
      this.options.onResponse?.({ vendor, endpoint, status, durationMs: performance.now() - started });
    }
  }

  private async restartAsUtf16(
    res: IncomingMessage,
    first: Buffer,
    objectTags: readonly string[],
    endpoint: string,
  ): Promise<TallyObject[]> {
    const parser = answerParser('utf-16le', objectTags);
    parser.write(first);
    for await (const chunk of res) parser.write(chunk as Buffer);
    return this.finish(parser.end(), endpoint);
  }

  private finish(answer: { objects: TallyObject[]; lineError?: string }, endpoint: string): TallyObject[] {
    if (answer.lineError !== undefined) throw lineError(answer.lineError, endpoint, this.tally.company);
    return answer.objects;
  }
}

function post(url: string, payload: Buffer, charset: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': `text/xml; charset=${charset}`, 'content-length': payload.length },
        signal,
      },
      resolve,
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function firstBytes(res: IncomingMessage, limit: number): Promise<string> {
  let text = '';
  for await (const chunk of res) {
    if (text.length < limit) text += (chunk as Buffer).toString('utf8');
  }
  return text.slice(0, limit);
}

/** Agent mode has no URL: the worker reads the agent's batches (streams/agent-source.ts), never Tally itself. */
const NO_URL_IN_AGENT_MODE = 'http://agent-mode.invalid/';

export function createClient(options: ClientOptions): TallyClient {
  return tallyClient(options);
}

/** The client without the pipeline's token store (Tally takes no credentials): the agent builds it so. */
export function tallyClient(options: Omit<ClientOptions, 'tokens'>): TallyClient {
  const { settings } = options;
  const url = settings.url ?? NO_URL_IN_AGENT_MODE;
  return new TallyClient(
    {
      vendor: 'tally',
      prefixUrl: url,
      errorTable,
      retry: { ...RETRY, ...(options.retry ?? {}) },
      timeoutMs: settings.timeoutMs,
      readQuota,
      ...connectionHooks(options),
    },
    { url, encoding: settings.encoding, company: settings.company },
  );
}

/** The TallyClient a read context carries; anything else is a wiring mistake, said plainly. */
export function tallyClientOf(http: VendorClient): TallyClient {
  if (!(http instanceof TallyClient)) throw new TypeError("a Tally stream needs the Tally connector's client");
  return http;
}
