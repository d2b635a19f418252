import type { IncomingHttpHeaders } from 'node:http';
import { unauthorized } from './errors.js';

/**
 * Key checks (interface "Authentication"; docs/interface-assumptions.md A4, A28). Endpoints 6 and 7
 * take `X-Service-Attachment-Upload-Signature`, every other endpoint `X-Service-Signature`; the key
 * decides the company. Missing key, unknown key, or the other kind of header → 401 whose message names
 * the expected header and never echoes the key.
 */
export const SERVICE_KEY_HEADER = 'X-Service-Signature';
export const ATTACHMENT_KEY_HEADER = 'X-Service-Attachment-Upload-Signature';

export type KeyKind = 'service' | 'attachment';

export interface CompanyKey {
  key: string;
  companyId: string;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

export class KeyRing {
  private readonly service: Map<string, string>;
  private readonly attachment: Map<string, string>;

  constructor(serviceKeys: readonly CompanyKey[], attachmentKeys: readonly CompanyKey[]) {
    this.service = new Map(serviceKeys.map((k) => [k.key, k.companyId]));
    this.attachment = new Map(attachmentKeys.map((k) => [k.key, k.companyId]));
  }

  /** Every company some key belongs to. */
  companies(): string[] {
    return [...new Set([...this.service.values(), ...this.attachment.values()])];
  }

  /** The company of the request, or a 401. */
  authenticate(headers: IncomingHttpHeaders, kind: KeyKind): string {
    const expected = kind === 'service' ? SERVICE_KEY_HEADER : ATTACHMENT_KEY_HEADER;
    const other = kind === 'service' ? ATTACHMENT_KEY_HEADER : SERVICE_KEY_HEADER;
    const presented = headerValue(headers, expected);
    if (presented === undefined) {
      const wrongKind = headerValue(headers, other) !== undefined;
      throw unauthorized(
        wrongKind ? `this endpoint expects the ${expected} header, not ${other}` : `missing ${expected} header`,
      );
    }
    const company = (kind === 'service' ? this.service : this.attachment).get(presented);
    if (company === undefined) throw unauthorized(`unknown key in the ${expected} header`);
    return company;
  }

  /** The key a request presented (either header), for the journal. */
  static presentedKey(headers: IncomingHttpHeaders): string | undefined {
    return headerValue(headers, SERVICE_KEY_HEADER) ?? headerValue(headers, ATTACHMENT_KEY_HEADER);
  }
}
