/** A document as the vendor served it. */
export interface DocumentFile {
  contentType: string;
  body: Buffer;
}

export interface DocumentCacheOptions {
  /** How long a document is served from memory after its vendor call. */
  ttlMs: number;
  /** The most bytes held at once; the least recently used go first. A larger document is never held. */
  maxBytes: number;
  now?: () => number;
}

interface Held {
  file: DocumentFile;
  until: number;
}

/**
 * The documents fetched in the last `ttlMs`, by key, within `maxBytes` (least recently used evicted
 * first): billing and its users open the same PDF a few times in a row, and each open would otherwise
 * spend a call of the connection's vendor quota. Per process, in memory; nothing in it outlives the TTL.
 */
export class DocumentCache {
  private readonly held = new Map<string, Held>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: DocumentCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get(key: string): DocumentFile | undefined {
    const h = this.held.get(key);
    if (!h) return undefined;
    this.drop(key, h);
    if (h.until <= this.now()) return undefined;
    // Map order is use order: put back last, as the most recently used.
    this.held.set(key, h);
    this.bytes += h.file.body.length;
    return h.file;
  }

  set(key: string, file: DocumentFile): void {
    const old = this.held.get(key);
    if (old) this.drop(key, old);
    if (file.body.length > this.options.maxBytes || this.options.ttlMs <= 0) return;
    for (const [k, h] of this.held) {
      if (this.bytes + file.body.length <= this.options.maxBytes) break;
      this.drop(k, h);
    }
    this.held.set(key, { file, until: this.now() + this.options.ttlMs });
    this.bytes += file.body.length;
  }

  get size(): { documents: number; bytes: number } {
    return { documents: this.held.size, bytes: this.bytes };
  }

  private drop(key: string, h: Held): void {
    this.held.delete(key);
    this.bytes -= h.file.body.length;
  }
}

/**
 * The worker's cache of served documents: five minutes (a person opening a PDF twice, billing fetching it
 * to show and then to store) within 32 MiB (a few hundred invoices' PDFs at a typical 50–100 KiB).
 */
export const DOCUMENT_CACHE = { ttlMs: 5 * 60_000, maxBytes: 32 * 1024 * 1024 } as const;
