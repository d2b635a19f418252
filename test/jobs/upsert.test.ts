import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../support/pipeline.js';

describe('upsert without an attachment key', () => {
  let p: Pipeline;
  beforeAll(async () => {
    p = await startPipeline({ name: 'no-attach', invoices: 20, withoutAttachmentKey: true });
    p.startWorkers(['pull', 'upsert', 'backfill']);
  }, 60_000);
  afterAll(() => p?.close());

  it('given billing.attachmentKey unset and invoices with ERP document links, when they sync, then every invoice is written, none quarantined, and no attachment is sent', async () => {
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
    const posted = p.journal().filter((e) => e.method === 'POST');
    expect(posted.filter((e) => e.path.startsWith('/invoice/attachment'))).toEqual([]);
    expect(await p.rt.quarantine.list(p.rt.config.connections[0]!.id)).toEqual([]);
    expect(p.billingInvoices().size).toBeGreaterThan(0);
    expect(p.billingInvoices().size).toBe(await p.rt.ledger.count(p.rt.config.connections[0]!.id, 'invoices'));
  }, 90_000);
});
