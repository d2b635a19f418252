import { afterEach, describe, expect, it } from 'vitest';
import { creditNotesStream } from '../../../../connectors/quickbooks/streams/credit-notes.js';
import { type QuickBooksClients, startQuickBooksClients, latestById, readAll } from '../harness.js';

describe('QuickBooks credit-notes stream against the sandbox', () => {
  let h: QuickBooksClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given credit memos applied to invoices, then a full read maps each to a credit note naming its invoice; a deleted one comes back through CDC', async () => {
    h = await startQuickBooksClients({ records: 80, creditMemos: 15 });
    const { records } = await readAll(creditNotesStream, h.ctx(), creditNotesStream.initialState());
    const expected = new Map(
      [...h.emu.store.docs.CreditMemo.values()].map((d) => [d.id, new Date(d.lastUpdated).toISOString()]),
    );
    expect(latestById(records)).toEqual(expected);
    const lookups = await creditNotesStream.lookups!(h.ctx());
    const ctx = {
      connectionId: h.connectionId,
      originSource: 'EXTERNAL_SYSTEM_B' as const,
      baseCurrency: 'INR',
      lookups,
    };
    for (const r of records) {
      const m = creditNotesStream.map(r, ctx);
      if (!m.ok) throw new Error(`${m.reason}: ${m.message}`);
      const memo = h.emu.store.docs.CreditMemo.get(r.id)!;
      expect(m.value.kind === 'credit-note' && m.value.creditNote.appliedToInvoices).toEqual([
        { invoiceId: `inv.${h.connectionId}.${memo.invoiceRef}`, amount: memo.creditPaise / 100 },
      ]);
    }

    const cursor = new Date(h.emu.clock.now()).toISOString();
    h.emu.clock.set({ advanceSeconds: 10 });
    const gone = [...h.emu.store.docs.CreditMemo.keys()][0]!;
    h.emu.store.deleteDoc('CreditMemo', gone);
    const next = await readAll(creditNotesStream, h.ctx(), { cursor });
    expect(next.records.filter((r) => r.deleted).map((r) => r.id)).toEqual([gone]);
    // `>=` (to the second) re-reads records stamped in the cursor's second; nothing older comes back.
    expect(next.records.every((r) => r.deleted || r.version.slice(0, 19) >= cursor.slice(0, 19))).toBe(true);
  });
});
