import { createHash } from 'node:crypto';

export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  /** The key presented, so tests can check company scoping. Emulator-only: never a real secret. */
  key?: string;
  status: number;
  /** sha256 of the raw request body (empty string when none). */
  bodyHash: string;
  /** The raw request body itself, only when the journal keeps bodies (a test that checks what a client sent). */
  body?: string;
  durationMs: number;
}

/** Bounded in-memory request journal (oldest entries dropped past `max`). */
export class Journal {
  private entries: JournalEntry[] = [];
  private seq = 0;

  constructor(
    private readonly max = 200_000,
    private readonly keepBodies = false,
  ) {}

  record(e: Omit<JournalEntry, 'seq' | 'bodyHash' | 'at'> & { rawBody: string }): void {
    const { rawBody, ...rest } = e;
    this.entries.push({
      ...rest,
      seq: ++this.seq,
      at: new Date().toISOString(),
      bodyHash: createHash('sha256').update(rawBody).digest('hex'),
      ...(this.keepBodies ? { body: rawBody } : {}),
    });
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
  }

  list(filter: { since?: number; path?: string } = {}): JournalEntry[] {
    return this.entries.filter(
      (e) =>
        (filter.since === undefined || e.seq > filter.since) && (filter.path === undefined || e.path === filter.path),
    );
  }

  clear(): void {
    this.entries = [];
  }
}
