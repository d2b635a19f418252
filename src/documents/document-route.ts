import express, { type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { ParkedError, RateLimitedError, RejectedError, SyncError } from '../errors/index.js';
import type { DocumentFile } from './document-cache.js';
import type { DocumentRef } from './document-link-token.js';
import { DOCUMENTS_PATH } from './document-links.js';
import type { DocumentSource } from './document-source.js';

export interface DocumentRouteOptions {
  source: DocumentSource;
  logger: Pick<Logger, 'warn'>;
  /** The longest a request waits for its vendor call, quota slot included; then 503. @defaultValue 20000 */
  timeoutMs?: number;
  /** How long billing's browser may keep the PDF (the cache's TTL). */
  maxAgeSeconds: number;
}

function refuse(res: Response, status: number, error: string, message: string, retryAfterS?: number): void {
  if (retryAfterS !== undefined) res.setHeader('retry-after', String(retryAfterS));
  res.status(status).json({ error, message });
}

function send(res: Response, ref: DocumentRef, file: DocumentFile, maxAgeSeconds: number): void {
  const name = `${ref.entity === 'invoices' ? 'invoice' : 'credit-note'}-${ref.id}`.replace(/[^A-Za-z0-9._-]/g, '_');
  res.status(200);
  res.setHeader('content-type', file.contentType);
  res.setHeader('content-length', String(file.body.length));
  res.setHeader('content-disposition', `inline; filename="${name}.pdf"`);
  res.setHeader('cache-control', `private, max-age=${maxAgeSeconds}`);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.end(file.body);
}

/** A vendor call that failed, as the link's answer: the document is gone (404), wait (503), or the vendor failed (502). */
function vendorFailure(res: Response, err: unknown): void {
  if (err instanceof RejectedError) return refuse(res, 404, 'NOT_FOUND', 'the vendor has no such document');
  if (err instanceof ParkedError)
    return refuse(
      res,
      503,
      'VENDOR_QUOTA',
      'the vendor quota is spent',
      Math.max(1, Math.ceil((err.untilMs - Date.now()) / 1000)),
    );
  if (err instanceof RateLimitedError)
    return refuse(
      res,
      503,
      'VENDOR_QUOTA',
      'the vendor asked to wait',
      Math.max(1, Math.ceil((err.retryAfterMs ?? 1000) / 1000)),
    );
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return refuse(res, 503, 'TIMEOUT', 'the vendor did not answer in time', 5);
  refuse(res, 502, 'VENDOR_FAILED', 'the vendor could not serve the document');
}

/**
 * `GET /documents/v1/<token>/<filename>`: the PDF a document link names (docs/operations.md, "Document
 * links"). The token is the only credential and is never logged; `<filename>` is what billing shows and
 * is not read. Unknown or altered tokens answer 404 before anything else happens.
 */
export function documentRoutes(options: DocumentRouteOptions): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const timeoutMs = options.timeoutMs ?? 20_000;
  router.get(`${DOCUMENTS_PATH}/:token{/:filename}`, async (req, res) => {
    let ref: DocumentRef | undefined;
    try {
      const resolved = await options.source.resolve(String(req.params.token));
      if ('refused' in resolved) {
        const { status, error, message } = resolved.refused;
        return refuse(res, status, error, message);
      }
      ref = resolved.ref;
      send(res, ref, await options.source.fetch(ref, AbortSignal.timeout(timeoutMs)), options.maxAgeSeconds);
    } catch (err) {
      // Logged by what the link names, never by the token or the path (the link's only credential).
      options.logger.warn(
        { ...(ref ?? {}), err: err instanceof SyncError ? err : String(err) },
        'a document link could not be served',
      );
      if (!res.headersSent) vendorFailure(res, err);
    }
  });
  return router;
}
