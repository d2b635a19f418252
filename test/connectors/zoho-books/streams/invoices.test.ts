import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicesStream } from '../../../../connectors/zoho-books/streams/invoices.js';
import { type ZohoClients, mapAll, readAll, startZohoClients } from '../harness.js';

describe('the invoices stream against the emulator: read and mapped', () => {
  let h: ZohoClients;
  beforeAll(async () => {
    h = await startZohoClients({ records: 45, customers: 14, creditNotes: 12 });
  });
  afterAll(() => h.close());

  it('given the emulator data, when every invoice is mapped, then billing totals equal Zoho totals and outstanding = Zoho balance to the paisa', async () => {
    const { records } = await readAll(invoicesStream, h.context(h.client()), invoicesStream.initialState());
    for (const { id, result } of await mapAll(invoicesStream, h, records)) {
      if (!result.ok || result.value.kind !== 'invoice') throw new Error(`${id} did not map`);
      const raw = records.find((r) => r.id === id)!.raw as { total: number; balance: number; status: string };
      const inv = result.value.invoice;
      expect(inv.invoiceTotal).toBe(raw.total);
      if (raw.status !== 'void' && raw.status !== 'draft') {
        const outstanding =
          Math.round((inv.invoiceTotal - inv.invoicePaidAmount - inv.invoiceAdjustedAmount) * 100) || 0;
        expect(outstanding).toBe(Math.round(raw.balance * 100) || 0);
      }
      expect(inv.metaData?.sourceStatus).toBe(raw.status);
    }
  });
});

describe('the invoices stream against the emulator: FX', () => {
  let h: ZohoClients | undefined;
  afterAll(() => h?.close());

  it('given a foreign-currency invoice whose rate cannot be derived, when the stream is read and mapped, then it is quarantined FX_UNDERIVABLE and never leaves the mapper', async () => {
    await h?.close();
    h = await startZohoClients({ records: 60, customers: 20 });
    const foreign = h.emulator.store.invoices().find((i) => i.currency_code !== 'INR');
    expect(foreign, 'the seed has a foreign-currency invoice').toBeDefined();
    // The emulator has no mutation for exchange rates: a rate of 0 renders exchange_rate 0 and bcy_* 0.
    foreign!.exchangeRateMicro = 0;
    const { records } = await readAll(invoicesStream, h.context(h.client()), invoicesStream.initialState());
    const mapped = await mapAll(invoicesStream, h, records);
    const bad = mapped.filter((m) => !m.result.ok);
    expect(bad).toEqual([
      { id: foreign!.invoice_id, result: expect.objectContaining({ ok: false, reason: 'FX_UNDERIVABLE' }) },
    ]);
    const sent = mapped.flatMap((m) =>
      m.result.ok && m.result.value.kind === 'invoice' ? [m.result.value.invoice.erpId] : [],
    );
    expect(sent).not.toContain(foreign!.invoice_id);
    const usd = mapped.find(
      (m) => m.result.ok && m.result.value.kind === 'invoice' && m.result.value.invoice.invoiceCurrency !== 'INR',
    );
    if (usd?.result.ok && usd.result.value.kind === 'invoice')
      expect(usd.result.value.invoice.exchangeRate).toBeGreaterThan(80);
  });
});
