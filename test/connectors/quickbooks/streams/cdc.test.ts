import { afterEach, describe, expect, it } from 'vitest';
import { cdcSince, readCdcDeletes } from '../../../../connectors/quickbooks/streams/cdc.js';
import { type QuickBooksClients, startQuickBooksClients, T0 } from '../harness.js';

const DAY = 86_400_000;

describe('QuickBooks CDC deletes', () => {
  let h: QuickBooksClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given a cursor, then changedSince is the cursor, clipped to the 30-day window (with an hour of margin)', () => {
    const until = new Date(T0);
    expect(cdcSince('2025-02-20T00:00:00.000Z', until)).toEqual({
      since: new Date('2025-02-20T00:00:00.000Z'),
      clipped: false,
    });
    expect(cdcSince('2024-12-01T00:00:00.000Z', until)).toEqual({
      since: new Date(Date.parse(T0) - 30 * DAY + 3_600_000),
      clipped: true,
    });
    expect(cdcSince(null, until)).toEqual({ since: new Date(Date.parse(T0) - 30 * DAY + 3_600_000), clipped: false });
  });

  it('given several entities whose changes exceed 1,000, then the call is split per entity (and walked forward) and every delete of each is found once', async () => {
    h = await startQuickBooksClients({ records: 1300, spanDays: 25, creditMemos: 30 });
    const memos = [...h.emu.store.docs.CreditMemo.keys()].slice(0, 3);
    for (const id of memos) h.emu.store.deleteDoc('CreditMemo', id, Date.parse(T0) - 2 * DAY);
    const since = new Date(Date.parse(T0) - 24 * DAY);
    const expected = h.emu.store.deleted
      .filter((s) => s.deletedAt >= since.getTime())
      .map((s) => `${s.entity}:${s.id}`);
    const found: string[] = [];
    const before = h.emu.stats().cdcCalls;
    for await (const batch of readCdcDeletes(h.ctx(), ['Invoice', 'CreditMemo'], since))
      found.push(...batch.map((d) => `${d.entity}:${d.stub.Id}`));
    expect(found.sort()).toEqual(expected.sort());
    expect(found.filter((k) => k.startsWith('CreditMemo:'))).toHaveLength(3);
    expect(h.emu.stats().cdcCalls - before).toBeGreaterThanOrEqual(3);
  });
});
