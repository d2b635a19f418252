import type { AppConfig } from '../config.js';
import type { Connector } from '../connector/types.js';
import type { VendorClient } from '../http/vendor-client.js';
import type { ConnectionControl } from '../pipeline/connection-control.js';
import type { DocumentCache, DocumentFile } from './document-cache.js';
import { type DocumentRef, verifyDocumentToken } from './document-link-token.js';

/** What a document link's request comes to before any vendor call: a refusal, with its HTTP status. */
export type DocumentRefusal =
  | { status: 404; error: 'NOT_FOUND'; message: string }
  | { status: 410; error: 'GONE'; message: string }
  | { status: 503; error: 'CONNECTION_PAUSED'; message: string };

export interface DocumentSourceDeps {
  /** The running config, read at each request: a reload that removes a connection ends its links. */
  config(): Pick<AppConfig, 'http' | 'connections'>;
  connectorFor(system: AppConfig['connections'][number]['system']): Pick<Connector, 'documents'>;
  /** The connection's vendor client: its tokens, its quota slots, its error table. */
  vendorClient(connection: string): VendorClient;
  connectionControl: Pick<ConnectionControl, 'state'>;
  cache: DocumentCache;
}

const NOT_FOUND: DocumentRefusal = { status: 404, error: 'NOT_FOUND', message: 'no such document' };

/**
 * A link's document: the token verified (constant time, before anything of it is read), its connection
 * still configured (else 410) and not paused (503), its connector one that serves documents; then the
 * cached PDF, or one vendor call through the connection's client (its auth and its quota slot) whose
 * answer is cached. Concurrent opens of one document share that call.
 */
export class DocumentSource {
  private readonly pending = new Map<string, Promise<DocumentFile>>();

  constructor(private readonly deps: DocumentSourceDeps) {}

  /** The reference a token names, or why it is refused; no vendor call. */
  async resolve(token: string): Promise<{ ref: DocumentRef } | { refused: DocumentRefusal }> {
    const config = this.deps.config();
    const key = config.http.documentLinkKey;
    const ref = key ? verifyDocumentToken(key, token) : undefined;
    if (!ref) return { refused: NOT_FOUND };
    const connection = config.connections.find((c) => c.id === ref.connection);
    if (!connection)
      return { refused: { status: 410, error: 'GONE', message: 'the connection is no longer configured' } };
    if (!this.deps.connectorFor(connection.system).documents) return { refused: NOT_FOUND };
    const state = await this.deps.connectionControl.state(connection.id);
    if (state.state === 'paused')
      return { refused: { status: 503, error: 'CONNECTION_PAUSED', message: 'the connection is paused' } };
    return { ref };
  }

  /** The document's PDF: from the cache, else from the vendor (errors are the vendor client's SyncErrors). */
  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<DocumentFile> {
    const key = `${ref.connection}\0${ref.entity}\0${ref.id}`;
    const cached = this.deps.cache.get(key);
    if (cached) return cached;
    let call = this.pending.get(key);
    if (!call) {
      call = this.fromVendor(ref, signal).finally(() => this.pending.delete(key));
      this.pending.set(key, call);
    }
    return await call;
  }

  private async fromVendor(ref: DocumentRef, signal?: AbortSignal): Promise<DocumentFile> {
    const connection = this.deps.config().connections.find((c) => c.id === ref.connection)!;
    const documents = this.deps.connectorFor(connection.system).documents!;
    const file = await documents.pdf(this.deps.vendorClient(ref.connection), ref.entity, ref.id, signal);
    this.deps.cache.set(`${ref.connection}\0${ref.entity}\0${ref.id}`, file);
    return file;
  }
}
