import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { safeEqual } from '../http/safe-equal.js';

/** The documents a link can name: the synced entities that have a printable document at the vendor. */
export const DOCUMENT_ENTITIES = ['invoices', 'credit-notes'] as const;
export type DocumentEntity = (typeof DOCUMENT_ENTITIES)[number];

/** What a link names: a document of a connection, by the vendor's own id. Nothing in it is a secret. */
export interface DocumentRef {
  connection: string;
  entity: DocumentEntity;
  /** The vendor's id of the invoice or credit note (QuickBooks Id, Xero InvoiceID / CreditNoteID). */
  id: string;
}

/** A token longer than this is refused unread: a real one is well under it (ids are short). */
export const TOKEN_MAX_LENGTH = 600;
/** Base64url of an HMAC-SHA256: 32 bytes. */
const MAC_LENGTH = 43;
const SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
/** Bound into every MAC: a MAC made for another purpose with the same key never passes as a link's. */
const DOMAIN = 'erp-sync document link v1\0';

const Payload = z.strictObject({
  c: z.string().min(1).max(100),
  e: z.enum(DOCUMENT_ENTITIES),
  v: z.string().min(1).max(200),
});

function macOf(key: string, payload: string): string {
  return createHmac('sha256', key).update(DOMAIN).update(payload).digest('base64url');
}

/**
 * The token of a document link: `<payload>.<mac>`, the payload the reference as base64url JSON and the
 * MAC an HMAC-SHA256 of it under the link key. The same reference always gives the same token, so a
 * document synced again keeps its link (billing holds one attachment per document, not one per edit).
 */
export function signDocumentRef(key: string, ref: DocumentRef): string {
  const payload = Buffer.from(JSON.stringify({ c: ref.connection, e: ref.entity, v: ref.id }), 'utf8').toString(
    'base64url',
  );
  return `${payload}.${macOf(key, payload)}`;
}

/**
 * The reference a token names, or undefined when it is not one this key signed. The MAC is checked
 * first, in constant time, over the payload as sent: nothing of the payload is decoded or parsed before
 * it has passed, so a forged token costs one HMAC and tells nothing.
 */
export function verifyDocumentToken(key: string, token: string): DocumentRef | undefined {
  if (token.length > TOKEN_MAX_LENGTH || !SHAPE.test(token)) return undefined;
  const dot = token.length - MAC_LENGTH - 1;
  const payload = token.slice(0, dot);
  if (!safeEqual(macOf(key, payload), token.slice(dot + 1))) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = Payload.safeParse(json);
  if (!parsed.success) return undefined;
  return { connection: parsed.data.c, entity: parsed.data.e, id: parsed.data.v };
}
