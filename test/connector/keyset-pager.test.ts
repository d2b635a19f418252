import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keysetPages, pageCovering, type KeysetQuery, type KeysetResponse } from '../../src/connector/keyset-pager.js';

/**
 * An in-memory vendor list with the query semantics both vendors document: records with time ≥ a bound,
 * ordered by time (ties in write order), sliced at an offset (or by page number), evaluated afresh on
 * every call. Between calls records are edited (a new, later-or-equal time: they join the end) or deleted.
 */
interface Row {
  id: string;
  time: number;
  seq: number;
}
/** After call `after`, edit or delete a record: of the slice just returned (the adversarial case) or any. */
type Mutation = { after: number; kind: 'edit' | 'delete'; pick: number; inSlice: boolean; advanceMs: number };

const BASE = Date.UTC(2025, 1, 10, 6, 31, 10);

class MemoryList {
  rows: Row[];
  calls = 0;
  private seq = 0;
  private clock: number;
  constructor(
    times: number[],
    private readonly mutations: Mutation[],
    private readonly byPageNumber: boolean,
    from: number | undefined,
    private readonly resolutionMs: number,
  ) {
    this.rows = times.map((time, i) => ({ id: `r${i}`, time: this.stamp(time), seq: this.seq++ }));
    // An edit is stamped "now": never before a record already there, nor before the read's cursor.
    this.clock = Math.max(BASE, from ?? BASE, ...times);
  }
  stamp(ms: number): number {
    return Math.floor(ms / this.resolutionMs) * this.resolutionMs;
  }
  sorted(): Row[] {
    return [...this.rows].sort((a, b) => a.time - b.time || a.seq - b.seq);
  }
  async fetch(q: KeysetQuery): Promise<KeysetResponse<Row>> {
    if (++this.calls > 10_000) throw new Error('the pager does not stop');
    const matched = this.sorted().filter((r) => q.since === undefined || r.time >= q.since);
    const { start, size } = this.byPageNumber ? this.page(q) : { start: q.offset, size: q.limit };
    const records = matched.slice(start, start + size).map((r) => ({ ...r }));
    for (const m of this.mutations.filter((x) => x.after === this.calls)) this.mutate(m, records);
    return { records, offset: start, more: start + size < matched.length };
  }
  private page(q: KeysetQuery): { start: number; size: number } {
    const { page, pageSize } = pageCovering(q.offset, q.limit);
    expect((page - 1) * pageSize).toBeLessThanOrEqual(q.offset);
    return { start: (page - 1) * pageSize, size: pageSize };
  }
  private mutate(m: Mutation, slice: Row[]): void {
    const from = m.inSlice && slice.length ? this.rows.filter((r) => slice.some((s) => s.id === r.id)) : this.rows;
    if (from.length === 0) return;
    const row = from[m.pick % from.length]!;
    if (m.kind === 'delete') {
      this.rows = this.rows.filter((r) => r !== row);
      return;
    }
    this.clock += m.advanceMs;
    row.time = this.stamp(this.clock);
    row.seq = this.seq++;
  }
}

const scenario = fc.record({
  // Few distinct seconds, so one second often holds more records than a page.
  times: fc.array(
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 999 }), fc.boolean())
      .map(([s, ms, whole]) => BASE + s * 1000 + (whole ? 0 : ms)),
    { maxLength: 60 },
  ),
  mutations: fc.array(
    fc.record({
      after: fc.integer({ min: 1, max: 20 }),
      kind: fc.constantFrom<'edit' | 'delete'>('edit', 'edit', 'delete'),
      pick: fc.nat(),
      inSlice: fc.boolean(),
      advanceMs: fc.integer({ min: 0, max: 1500 }),
    }),
    { maxLength: 25 },
  ),
  pageSize: fc.integer({ min: 2, max: 8 }),
  grow: fc.boolean(),
  granule: fc.constantFrom('second', 'second-minus-one'),
  // Whole-second stamps (QuickBooks): an edit later in the cursor's second is stamped before the cursor.
  resolutionMs: fc.constantFrom(1, 1000),
  fromSecond: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  untilSecond: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined }),
  byPageNumber: fc.boolean(),
});

describe('keysetPages', () => {
  it('given records edited, deleted and crowded into shared seconds while it pages, then each one in the window is yielded at least once, none before the cursor, every page checkpoint-safe, in a bounded number of calls', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const from = s.fromSecond === undefined ? undefined : BASE + s.fromSecond * 1000 + 500;
        const list = new MemoryList(s.times, s.mutations, s.byPageNumber, from, s.resolutionMs);
        // The window starts at the cursor's stamp unit: a record stamped there may be newer than the cursor.
        const start = from === undefined ? -Infinity : list.stamp(from);
        // Paging by page number needs pages of 10 or more to reach past an offset (pageCovering).
        const pageSize = s.byPageNumber ? s.pageSize + 8 : s.pageSize;
        const until = s.untilSecond === undefined ? Infinity : BASE + s.untilSecond * 1000;
        const atStart = new Set(list.rows.filter((r) => r.time >= start).map((r) => r.id));
        const yielded = new Set<string>();
        const pages = keysetPages(
          {
            fetch: (q) => list.fetch(q),
            timeOf: (r) => r.time,
            keyOf: (r) => `${r.id}@${r.time}`,
            resolutionMs: s.resolutionMs,
            lowerBound: (ms) => Math.floor(ms / 1000) * 1000 - (s.granule === 'second' ? 0 : 1000),
            pageSize,
            maxPageSize: s.grow ? 2 * pageSize : pageSize,
            where: { source: 'memory', operation: 'GET /list' },
          },
          from,
          until,
        );
        let cursor = from;
        for await (const page of pages) {
          for (const r of page.records) {
            expect(r.time).toBeGreaterThanOrEqual(start);
            expect(r.time).toBeLessThanOrEqual(until);
            yielded.add(`${r.id}@${r.time}`).add(r.id);
          }
          if (cursor !== undefined) expect(page.cursor).toBeGreaterThanOrEqual(cursor);
          cursor = page.cursor;
          // Checkpoint safety: nothing in the window that was not handed out lies before the page's cursor.
          for (const r of list.rows) {
            if (r.time < start || r.time > until || yielded.has(`${r.id}@${r.time}`)) continue;
            expect(r.time, `${r.id} not yet handed out`).toBeGreaterThanOrEqual(
              cursor === undefined ? -Infinity : list.stamp(cursor),
            );
          }
        }
        for (const r of list.rows) {
          if (atStart.has(r.id) && r.time <= until)
            expect(yielded.has(r.id), `${r.id} at ${r.time - BASE} missed`).toBe(true);
        }
        expect(list.calls).toBeLessThanOrEqual(4 * (s.times.length + s.mutations.length) + 4);
      }),
      { numRuns: 400 },
    );
  });

  it('given a vendor page too small to overlap, when the pager starts, then it refuses rather than loop', async () => {
    const pages = keysetPages(
      {
        fetch: async () => ({ records: [], offset: 0, more: false }),
        timeOf: () => 0,
        resolutionMs: 1,
        keyOf: () => '',
        lowerBound: (ms) => ms,
        pageSize: 1,
        maxPageSize: 1,
        where: { source: 'memory', operation: 'GET /list' },
      },
      undefined,
    );
    await expect(pages.next()).rejects.toThrow(RangeError);
  });

  it('given an offset beyond half a page, when it is turned into a page number, then that page starts at or just before the offset and is at least half a page long', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 2, max: 1000 }), (offset, limit) => {
        const { page, pageSize } = pageCovering(offset, limit);
        const start = (page - 1) * pageSize;
        expect(start).toBeLessThanOrEqual(offset);
        expect(pageSize).toBeLessThanOrEqual(limit);
        expect(pageSize).toBeGreaterThanOrEqual(Math.floor(limit / 2));
        if (offset > limit / 2) expect(offset - start).toBeLessThan(page);
      }),
    );
  });
});
