import { createHash } from 'node:crypto';

/**
 * Deterministic ids (docs/interface-assumptions.md A31). The billing upsert key is `invoiceId`, so the
 * same ERP record must always map to the same id, and two different records never to the same one.
 *
 * Format: `<kind>.<connection>.<erp id>`, e.g. `inv.zoho-in.1890000000043211`, `cust.xero-au.5b3e7c1a-...`.
 * - Each part is escaped so the result uses only `[A-Za-z0-9._-]`: letters, digits and `-` stay as they
 *   are (Zoho and QuickBooks ids are digits, Xero's are UUIDs, so real ids stay readable); every other
 *   byte of the UTF-8 text, `.` and `_` included, becomes `_XX` (two upper-case hex digits; a lone UTF-16
 *   surrogate, which has no UTF-8 form, becomes `_uXXXX`). Parts therefore never contain `.`, so the
 *   separator is unambiguous, and the escaping is reversible (`unescapeIdPart`), so distinct inputs give
 *   distinct ids: "a:b" → "a_3Ab", "a-b" → "a-b", "a_3Ab" → "a_5F3Ab".
 * - No `:` (BullMQ rejects it in job ids) and no `/` (paths, Redis key conventions).
 * - At most MAX_ID_LENGTH characters. A longer id keeps its first characters and ends in `~` plus 20 hex
 *   digits of SHA-256 of the full id. `~` never occurs in an un-hashed id, so hashed and plain ids cannot
 *   collide; two hashed ids collide only on an 80-bit hash collision.
 */
export const MAX_ID_LENGTH = 100;
/** Job ids hold an entity id plus a few words (job kind, version), so they get more room. */
export const MAX_JOB_ID_LENGTH = 200;

const HASH_HEX_DIGITS = 20;

/** Reversible escaping into `[A-Za-z0-9-]` plus `_XX` escapes. */
export function escapeIdPart(part: string): string {
  let out = '';
  for (const ch of part) {
    const codePoint = ch.codePointAt(0)!;
    if (/^[A-Za-z0-9-]$/.test(ch)) {
      out += ch;
    } else if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      // A lone UTF-16 surrogate has no UTF-8 form (Buffer would turn every one into U+FFFD and make
      // distinct strings collide), so it gets its own escape; `u` is not a hex digit, so no ambiguity.
      out += `_u${codePoint.toString(16).toUpperCase()}`;
    } else {
      for (const byte of Buffer.from(ch, 'utf8')) out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/** Inverse of escapeIdPart (for `erp-sync explain` and tests). */
export function unescapeIdPart(escaped: string): string {
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    out += Buffer.from(bytes).toString('utf8');
    bytes = [];
  };
  for (let i = 0; i < escaped.length;) {
    if (escaped.startsWith('_u', i)) {
      flush();
      out += String.fromCharCode(Number.parseInt(escaped.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (escaped[i] === '_') {
      bytes.push(Number.parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      flush();
      out += escaped[i];
      i += 1;
    }
  }
  flush();
  return out;
}

/** Cuts an over-long id to `max` characters, ending in `~` and a hash of the whole id. */
function bound(id: string, max: number): string {
  if (id.length <= max) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, HASH_HEX_DIGITS);
  return `${id.slice(0, max - HASH_HEX_DIGITS - 1)}~${hash}`;
}

export type EntityKind = 'inv' | 'cn' | 'cust';

/** `<kind>.<connection>.<erp id>`, escaped and bounded as described above. */
export function entityIdFor(kind: EntityKind, connectionId: string, erpId: string | number): string {
  return bound(`${kind}.${escapeIdPart(connectionId)}.${escapeIdPart(String(erpId))}`, MAX_ID_LENGTH);
}

/** The billing `invoiceId` of an ERP invoice on this connection. */
export function invoiceIdFor(connectionId: string, erpRecordId: string | number): string {
  return entityIdFor('inv', connectionId, erpRecordId);
}

/** The billing `creditNoteId` of an ERP credit note on this connection. */
export function creditNoteIdFor(connectionId: string, erpRecordId: string | number): string {
  return entityIdFor('cn', connectionId, erpRecordId);
}

/**
 * The ERP id inside an entity id of this connection, or undefined when the id is another connection's
 * or was cut to its bound (a hash cannot be reversed).
 */
export function erpIdOf(kind: EntityKind, connectionId: string, entityId: string): string | undefined {
  const prefix = `${kind}.${escapeIdPart(connectionId)}.`;
  if (!entityId.startsWith(prefix) || entityId.includes('~')) return undefined;
  return unescapeIdPart(entityId.slice(prefix.length));
}

/** The billing `buyerId` of an ERP customer/contact on this connection. */
export function buyerIdFor(connectionId: string, erpCustomerId: string | number): string {
  return entityIdFor('cust', connectionId, erpCustomerId);
}

/**
 * A BullMQ job id from parts joined with `-`, e.g. jobIdSafe('upsert', invoiceId, hash).
 * Characters outside `[A-Za-z0-9._~-]` (so `:`, `/`, spaces, unicode) are escaped as `_XX`; parts that
 * are already ids from this module pass through unchanged. BullMQ also rejects all-digit ids, so such a
 * result gets an `id-` prefix. Bounded to MAX_JOB_ID_LENGTH with the same hash suffix as entity ids.
 * Parts are joined, not framed: use fixed words and ids from this module as parts, not free text, if
 * distinct part lists must give distinct job ids.
 */
export function jobIdSafe(...parts: ReadonlyArray<string | number>): string {
  const sanitised = parts.map((p) => sanitiseJobIdPart(String(p))).join('-');
  const id = /^\d*$/.test(sanitised) ? `id-${sanitised}` : sanitised;
  return bound(id, MAX_JOB_ID_LENGTH);
}

function sanitiseJobIdPart(part: string): string {
  let out = '';
  for (const ch of part) {
    out += /^[A-Za-z0-9._~-]$/.test(ch) ? ch : escapeIdPart(ch);
  }
  return out;
}
