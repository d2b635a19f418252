import type { AppConfig } from '../config.js';
import { type DocumentEntity, signDocumentRef } from './document-link-token.js';

/** The path document links are served under (src/documents/document-route.ts). */
export const DOCUMENTS_PATH = '/documents/v1';

/** Builds a connection's document links: the URL billing opens for one of its documents. */
export type DocumentLinker = (entity: DocumentEntity, vendorId: string) => string;

/** The filename a link ends with: what billing shows for the attachment. Not signed, not read. */
function filenameOf(entity: DocumentEntity, vendorId: string): string {
  const name = `${entity === 'invoices' ? 'invoice' : 'credit-note'}-${vendorId}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${name}.pdf`;
}

/**
 * The document links of a connection, or undefined while the worker gives none: both `http.publicUrl`
 * (where billing reaches the worker) and `http.documentLinkKey` (what signs them) must be set.
 */
export function documentLinkerFor(http: AppConfig['http'], connection: string): DocumentLinker | undefined {
  const { publicUrl, documentLinkKey } = http;
  if (!publicUrl || !documentLinkKey) return undefined;
  const base = publicUrl.replace(/\/+$/, '');
  return (entity, id) =>
    `${base}${DOCUMENTS_PATH}/${signDocumentRef(documentLinkKey, { connection, entity, id })}/${filenameOf(entity, id)}`;
}

/** Why the worker gives no document links (`erp-sync config check`, docs/configuration.md), or undefined when it does. */
export function documentLinksOffReason(http: AppConfig['http']): string | undefined {
  if (!http.publicUrl && !http.documentLinkKey) return 'set http.publicUrl and http.documentLinkKey';
  if (!http.publicUrl) return 'set http.publicUrl (where billing reaches this worker)';
  if (!http.documentLinkKey) return 'set http.documentLinkKey (what signs the links)';
  return undefined;
}

/**
 * A stream's `documentUrl` for a vendor whose documents the worker serves (Connector.documents): the
 * worker's signed link to the record's PDF, by the record's vendor id, while the worker gives links.
 */
export function signedDocumentUrl(
  entity: DocumentEntity,
): (record: { id: string }, links: DocumentLinker | undefined) => string | undefined {
  return (record, links) => links?.(entity, record.id);
}
