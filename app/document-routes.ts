import type { Router } from 'express';
import { connectorFor } from '../connectors/registry.js';
import type { Runtime } from '../jobs/runtime.js';
import { DOCUMENT_CACHE, DocumentCache } from '../src/documents/document-cache.js';
import { documentRoutes } from '../src/documents/document-route.js';
import { DocumentSource } from '../src/documents/document-source.js';

/**
 * The worker's document links (`GET /documents/v1/…`) over the running runtime: the live config (a
 * reload that removes a connection ends its links), each connection's vendor client and pause state,
 * and a cache of this process's own.
 */
export function documentRoutesOf(
  rt: Pick<Runtime, 'config' | 'vendorClient' | 'connectionControl' | 'logger'>,
  cache = new DocumentCache(DOCUMENT_CACHE),
): Router {
  const source = new DocumentSource({
    config: () => rt.config,
    connectorFor,
    vendorClient: (id) => rt.vendorClient(id),
    connectionControl: rt.connectionControl,
    cache,
  });
  return documentRoutes({ source, logger: rt.logger, maxAgeSeconds: DOCUMENT_CACHE.ttlMs / 1000 });
}
