import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XeroContactsResponse, XeroCreditNotesResponse, XeroInvoicesResponse } from '../../connectors/xero/schemas.js';
import { ZohoContactList, ZohoInvoiceList } from '../../connectors/zoho-books/schemas.js';
import { makeJobHelpers } from '../../app/job-helpers.js';
import type { PullPayload } from '../../jobs/catalog.js';
import { enqueueAnnounced } from '../../jobs/pull/enqueue-announced.js';
import type { PullRun } from '../../jobs/pull/types.js';
import { readAnnounced } from '../../jobs/pull/read-announced.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { EntityName } from '../../src/connector/entities.js';
import type { WebhookEvent } from '../../src/webhooks/webhook-event.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * A record a webhook announces is read by id and goes through the same selection as the stream's own
 * pull: the suppliers' documents Xero and Zoho Books announce alongside the sales ones (bills, supplier
 * credit notes, supplier contacts, vendors) are skipped and counted, never quarantined. And a delete a
 * delivery announces is applied only once the vendor says the record is gone. Against the Xero and Zoho
 * Books emulators, each record found through the vendor's own API.
 */
let h: Harness;
let rt: Runtime;

function runOf(conn: string, entity: EntityName, b: number): PullRun {
  const handle = rt.connection(conn);
  const data: PullPayload = { connectionId: conn, entity, webhook: { batch: b } };
  return {
    rt: makeJobHelpers(rt).pull,
    job: { updateProgress: async () => {} },
    data,
    conn,
    entity,
    handle,
    stream: handle.connector.streams[entity],
    until: new Date(),
    log: rt.logger,
  };
}

/** Deliveries' events for one stream made durable, then that batch's targeted read. */
async function announceAndRead(conn: string, entity: EntityName, events: Array<Omit<WebhookEvent, 'entity'>>) {
  await enqueueAnnounced(
    rt,
    conn,
    events.map((e) => ({ ...e, entity })),
  );
  const jobs = (await rt.queues.pull.getJobs(['delayed', 'wait', 'prioritized'])).filter(
    (j) => j.data.webhook && j.data.connectionId === conn && j.data.entity === entity,
  );
  const b = Math.max(...jobs.map((j) => (j.data as PullPayload).webhook!.batch));
  return readAnnounced(runOf(conn, entity, b), b);
}

/** A GET through the connection's own client (its auth, its quotas) against the emulator. */
function vendorGet(conn: string, path: string, query: Record<string, string>, schema: unknown) {
  const handle = rt.connection(conn);
  const ctx = handle.readContext({ logger: rt.logger, until: new Date() });
  return ctx.http.request({ path, endpoint: `GET /${path}`, query, schema: schema as never }) as Promise<
    Record<string, Array<Record<string, unknown>>>
  >;
}

async function skipped(conn: string, entity: string): Promise<number> {
  const m = await rt.metrics.recordsSkipped.get();
  return (
    m.values.find(
      (v) => v.labels.connection === conn && v.labels.entity === entity && v.labels.reason === 'not-for-billing',
    )?.value ?? 0
  );
}

/** Zoho invoices neither draft nor void, by id, as its list says. */
async function issuedZohoInvoices(): Promise<string[]> {
  const listed = (await vendorGet(ZOHO(), 'invoices', {}, ZohoInvoiceList)).invoices!;
  return listed.filter((i) => i.status !== 'draft' && i.status !== 'void').map((i) => String(i.invoice_id));
}

const XERO = () => 'xero-in';
const ZOHO = () => 'zoho-in';
const now = () => new Date().toISOString();

beforeAll(async () => {
  // Each organisation with its suppliers' documents (bills, supplier credit notes, vendors) beside the sales ones.
  h = await startHarness({
    name: 'announced-selection',
    invoices: 60,
    connections: [
      {
        system: 'xero',
        id: XERO(),
        seed: 13,
        customers: 24,
        emulator: { creditNotes: 30 },
        extra: { webhooks: { secret: 'xero-webhook-key-of-at-least-32-chars' } },
      },
      {
        system: 'zoho-books',
        id: ZOHO(),
        seed: 13,
        customers: 80,
        emulator: { creditNotes: 60 },
        extra: { webhooks: { secret: 'zoho-workflow-secret-of-32-characters' } },
      },
    ],
    webhooks: { port: 0, coalesceMs: 60_000 },
  });
  rt = h.rt;
}, 60_000);
afterAll(() => h?.close());

describe('Xero: suppliers announced by webhook', () => {
  it('given INVOICE events for a bill (ACCPAY) and a sales invoice, when the read runs, then the bill is skipped and counted, never quarantined, and the sales invoice is enqueued', async () => {
    const bills = (await vendorGet(XERO(), 'Invoices', { where: 'Type=="ACCPAY"' }, XeroInvoicesResponse)).Invoices!;
    const sales = (
      await vendorGet(XERO(), 'Invoices', { where: 'Type=="ACCREC" AND Status=="AUTHORISED"' }, XeroInvoicesResponse)
    ).Invoices!;
    const bill = String(bills[0]!.InvoiceID);
    const sale = String(sales[0]!.InvoiceID);
    const before = await skipped(XERO(), 'invoices');
    const result = await announceAndRead(XERO(), 'invoices', [
      { id: bill, op: 'change', at: now() },
      { id: sale, op: 'change', at: now() },
    ]);
    expect(result).toMatchObject({ pulled: 2, notForBilling: 1, enqueued: 1, quarantined: 0 });
    expect(await skipped(XERO(), 'invoices')).toBe(before + 1);
    expect(await rt.quarantine.get(XERO(), 'invoices', bill)).toBeUndefined();
    const upserts = await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed']);
    expect(upserts.map((j) => j.data.erpId)).toContain(sale);
    expect(upserts.map((j) => j.data.erpId)).not.toContain(bill);
  });

  it('given a CREDITNOTE event for a supplier credit note (ACCPAYCREDIT), when the read runs, then it is skipped and counted, never quarantined', async () => {
    const credits = (
      await vendorGet(
        XERO(),
        'CreditNotes',
        { where: 'Type=="ACCPAYCREDIT" AND Status=="AUTHORISED"' },
        XeroCreditNotesResponse,
      )
    ).CreditNotes!;
    expect(credits.length).toBeGreaterThan(0);
    const id = String(credits[0]!.CreditNoteID);
    const before = await skipped(XERO(), 'credit-notes');
    const result = await announceAndRead(XERO(), 'credit-notes', [{ id, op: 'change', at: now() }]);
    expect(result).toMatchObject({ pulled: 1, notForBilling: 1, enqueued: 0, quarantined: 0 });
    expect(await skipped(XERO(), 'credit-notes')).toBe(before + 1);
    expect(await rt.quarantine.get(XERO(), 'credit-notes', id)).toBeUndefined();
  });

  it('given a CONTACT event for a supplier-only contact, when the read runs, then it is skipped and counted, never quarantined', async () => {
    const contacts = (await vendorGet(XERO(), 'Contacts', { includeArchived: 'true' }, XeroContactsResponse)).Contacts!;
    const supplier = contacts.find((c) => c.IsSupplier === true && c.IsCustomer !== true);
    expect(supplier).toBeDefined();
    const id = String(supplier!.ContactID);
    const result = await announceAndRead(XERO(), 'customers', [{ id, op: 'change', at: now() }]);
    expect(result).toMatchObject({ pulled: 1, notForBilling: 1, enqueued: 0, quarantined: 0 });
    expect(await rt.quarantine.get(XERO(), 'customers', id)).toBeUndefined();
  });
});

describe('Zoho Books: vendors and deletes announced by webhook', () => {
  it('given a contacts event for a vendor, when the read runs, then it is skipped and counted as the pull (contact_type=customer) would leave it, never written as a customer', async () => {
    const vendors = (await vendorGet(ZOHO(), 'contacts', { contact_type: 'vendor' }, ZohoContactList)).contacts!;
    expect(vendors.length).toBeGreaterThan(0);
    const id = String(vendors[0]!.contact_id);
    const before = await skipped(ZOHO(), 'customers');
    const result = await announceAndRead(ZOHO(), 'customers', [{ id, op: 'change', at: now() }]);
    expect(result).toMatchObject({ pulled: 1, notForBilling: 1, enqueued: 0, quarantined: 0 });
    expect(await skipped(ZOHO(), 'customers')).toBe(before + 1);
    const upserts = await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed']);
    expect(upserts.map((j) => j.data.erpId)).not.toContain(id);
  });

  it('given a deleted delivery for an invoice the source still has (forged, or wrong), when the read runs, then the invoice is read as a change: not marked deleted in the ledger, its version the source’s', async () => {
    const id = (await issuedZohoInvoices())[0]!;
    const written = {
      hash: 'h'.repeat(64),
      billingId: 'b-1',
      writtenAt: Date.now(),
      version: '2020-01-01T00:00:00.000Z',
    };
    await rt.ledger.put(ZOHO(), 'invoices', id, written);
    const result = await announceAndRead(ZOHO(), 'invoices', [{ id, op: 'delete', at: now() }]);
    expect(result).toMatchObject({ pulled: 1, deleted: 0, enqueued: 1 });
    const entry = await rt.ledger.get(ZOHO(), 'invoices', id);
    expect(entry?.sourceDeletedAt).toBeUndefined();
    expect(entry?.version).toBe(written.version);
  });

  it('given a deleted delivery for an invoice the source no longer has, when the read runs, then the vendor’s 404 confirms it and the ledger marks it deleted', async () => {
    const id = (await issuedZohoInvoices())[1]!;
    await rt.ledger.put(ZOHO(), 'invoices', id, {
      hash: 'h'.repeat(64),
      billingId: 'b-2',
      writtenAt: Date.now(),
      version: '2020-01-01T00:00:00.000Z',
    });
    const res = await fetch(`${h.emulatorOf(ZOHO(), 'zoho-books').url}/__admin/mutate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ op: 'delete_invoice', invoice_id: id, force: true }]),
    });
    expect(res.ok, await res.text()).toBe(true);
    const at = now();
    const result = await announceAndRead(ZOHO(), 'invoices', [{ id, op: 'delete', at }]);
    expect(result).toMatchObject({ pulled: 1, deleted: 1, enqueued: 0 });
    expect((await rt.ledger.get(ZOHO(), 'invoices', id))?.sourceDeletedAt).toBe(at);
  });
});
