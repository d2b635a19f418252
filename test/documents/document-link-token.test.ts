import { describe, expect, it } from 'vitest';
import {
  type DocumentRef,
  signDocumentRef,
  TOKEN_MAX_LENGTH,
  verifyDocumentToken,
} from '../../src/documents/document-link-token.js';
import { documentLinkerFor, documentLinksOffReason } from '../../src/documents/document-links.js';

const KEY = 'unit-document-link-key-0123456789abcdefghij';
const REF: DocumentRef = { connection: 'qbo-in', entity: 'invoices', id: '130' };

describe('document link tokens', () => {
  it('given a reference, when it is signed and verified with the same key, then the same reference comes back, and signing it again gives the same token', () => {
    const token = signDocumentRef(KEY, REF);
    expect(verifyDocumentToken(KEY, token)).toEqual(REF);
    expect(signDocumentRef(KEY, REF)).toBe(token);
    expect(verifyDocumentToken(KEY, signDocumentRef(KEY, { ...REF, entity: 'credit-notes' }))).toEqual({
      ...REF,
      entity: 'credit-notes',
    });
  });

  it('given a token whose payload or MAC is altered by one character, or signed with another key, then it does not verify', () => {
    const token = signDocumentRef(KEY, REF);
    const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
    for (const i of [0, 5, token.indexOf('.') - 1, token.indexOf('.') + 1, token.length - 1])
      expect(verifyDocumentToken(KEY, flip(token, i)), `char ${i}`).toBeUndefined();
    expect(verifyDocumentToken('another-key-0123456789abcdefghijklmnopq', token)).toBeUndefined();
    const other = signDocumentRef(KEY, { ...REF, id: '131' });
    expect(verifyDocumentToken(KEY, `${token.split('.')[0]}.${other.split('.')[1]}`)).toBeUndefined();
  });

  it('given a malformed or oversized token, then it is refused without error', () => {
    for (const t of ['', '.', 'abc', 'a.b', `${'a'.repeat(TOKEN_MAX_LENGTH)}.${'b'.repeat(43)}`, 'a b.c', '../x'])
      expect(verifyDocumentToken(KEY, t)).toBeUndefined();
  });

  it('given a payload that verifies but is not a reference (signed over other JSON), then it is refused', () => {
    // The MAC covers whatever payload was signed: a payload of another shape still fails the schema.
    const bogus = signDocumentRef(KEY, { connection: '', entity: 'invoices', id: '' });
    expect(verifyDocumentToken(KEY, bogus)).toBeUndefined();
  });

  it('given the token of a link, then it names the connection, entity and id and nothing else: no key, no vendor credential', () => {
    const token = signDocumentRef(KEY, REF);
    const payload = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
    expect(payload).toEqual({ c: 'qbo-in', e: 'invoices', v: '130' });
    expect(token).not.toContain(KEY);
  });
});

describe('document links', () => {
  const http = (o: Record<string, string>) => ({ port: 0, host: '127.0.0.1', trustedProxies: [], tokens: [], ...o });

  it('given http.publicUrl and http.documentLinkKey, then a connection’s link is <publicUrl>/documents/v1/<token>/<entity>-<id>.pdf and its token verifies', () => {
    const link = documentLinkerFor(http({ publicUrl: 'https://sync.example.com/', documentLinkKey: KEY }), 'qbo-in')!;
    const url = link('credit-notes', '7');
    expect(url).toMatch(/^https:\/\/sync\.example\.com\/documents\/v1\/[\w-]+\.[\w-]{43}\/credit-note-7\.pdf$/);
    expect(verifyDocumentToken(KEY, url.split('/')[5]!)).toEqual({
      connection: 'qbo-in',
      entity: 'credit-notes',
      id: '7',
    });
  });

  it('given either setting missing, then no links, and the reason names what to set', () => {
    expect(documentLinkerFor(http({ publicUrl: 'https://sync.example.com' }), 'qbo-in')).toBeUndefined();
    expect(documentLinkerFor(http({ documentLinkKey: KEY }), 'qbo-in')).toBeUndefined();
    expect(documentLinksOffReason(http({}))).toBe('set http.publicUrl and http.documentLinkKey');
    expect(documentLinksOffReason(http({ documentLinkKey: KEY }))).toMatch(/^set http\.publicUrl/);
    expect(documentLinksOffReason(http({ publicUrl: 'https://sync.example.com' }))).toMatch(
      /^set http\.documentLinkKey/,
    );
    expect(
      documentLinksOffReason(http({ publicUrl: 'https://sync.example.com', documentLinkKey: KEY })),
    ).toBeUndefined();
  });
});
