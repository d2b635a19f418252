import { describe, expect, it } from 'vitest';
import { DocumentCache, type DocumentFile } from '../../src/documents/document-cache.js';

const file = (bytes: number): DocumentFile => ({ contentType: 'application/pdf', body: Buffer.alloc(bytes, 1) });

describe('DocumentCache', () => {
  it('given a document cached, when read within the TTL then after it (injected clock), then it is served, then gone', () => {
    let now = 1_000;
    const cache = new DocumentCache({ ttlMs: 300_000, maxBytes: 1_000, now: () => now });
    const doc = file(10);
    cache.set('a', doc);
    now += 299_999;
    expect(cache.get('a')).toBe(doc);
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toEqual({ documents: 0, bytes: 0 });
  });

  it('given documents beyond maxBytes, when another is cached, then the least recently used go first and the bytes held stay within the bound', () => {
    const cache = new DocumentCache({ ttlMs: 60_000, maxBytes: 300, now: () => 0 });
    cache.set('a', file(100));
    cache.set('b', file(100));
    cache.set('c', file(100));
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', file(150));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.size).toEqual({ documents: 2, bytes: 250 });
  });

  it('given a document larger than maxBytes, or a TTL of 0, then it is not held', () => {
    const cache = new DocumentCache({ ttlMs: 60_000, maxBytes: 100, now: () => 0 });
    cache.set('big', file(101));
    expect(cache.get('big')).toBeUndefined();
    const off = new DocumentCache({ ttlMs: 0, maxBytes: 100, now: () => 0 });
    off.set('a', file(1));
    expect(off.get('a')).toBeUndefined();
  });

  it('given a key cached again, then the new document replaces the old and the bytes are counted once', () => {
    const cache = new DocumentCache({ ttlMs: 60_000, maxBytes: 1_000, now: () => 0 });
    cache.set('a', file(100));
    const newer = file(40);
    cache.set('a', newer);
    expect(cache.get('a')).toBe(newer);
    expect(cache.size).toEqual({ documents: 1, bytes: 40 });
  });
});
