import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { admin, qboGet, qboQuery } from '../../connectors/quickbooks/http.js';

type Json = Record<string, any>;
const published = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../../fixtures/golden/quickbooks/${name}.json`, import.meta.url), 'utf8')) as Json;

describe('QBO sandbox: records replayed in QuickBooks Online’s own JSON', () => {
  let emu: RunningQuickBooksEmulator;
  beforeAll(async () => {
    emu = await startQuickBooksEmulator({ now: '2014-10-01T00:00:00Z', frozen: true, records: 5 });
  });
  afterAll(() => emu.close());

  it('given Intuit’s published invoice posted to /__admin/records, when it is read by id and queried, then both return it exactly', async () => {
    const invoice = published('invoice-us-sales-tax').Invoice;
    const r = await admin(emu, 'records', { entity: 'Invoice', records: [invoice] });
    expect(r).toEqual({ status: 200, body: { entity: 'Invoice', ids: ['130'] } });
    expect((await qboGet(emu, 'invoice/130')).body.Invoice).toEqual(invoice);
    const q = await qboQuery(emu, "SELECT * FROM Invoice WHERE DocNumber = '1037'");
    expect(q.body.QueryResponse.Invoice).toEqual([invoice]);
  });

  it('given replayed records, when queried by Metadata.LastUpdatedTime and read by CDC, then their own timestamps decide (any offset)', async () => {
    const memo = published('credit-memo').CreditMemo; // LastUpdatedTime 2015-07-01T09:16:28-07:00
    await admin(emu, 'records', { entity: 'CreditMemo', records: [memo] });
    const after = await qboQuery(
      emu,
      "SELECT * FROM CreditMemo WHERE Metadata.LastUpdatedTime >= '2015-07-01T16:16:28Z'",
    );
    expect(after.body.QueryResponse.CreditMemo.map((m: Json) => m.Id)).toEqual(['73']);
    const later = await qboQuery(
      emu,
      "SELECT * FROM CreditMemo WHERE Metadata.LastUpdatedTime > '2015-07-01T16:16:28Z'",
    );
    expect(later.body.QueryResponse.CreditMemo).toBeUndefined();

    await emu.clock.set({ now: '2015-07-10T00:00:00Z', frozen: true });
    const cdc = await qboGet(emu, 'cdc', { entities: 'CreditMemo,Invoice', changedSince: '2015-07-01T09:16:28-07:00' });
    const blocks = cdc.body.CDCResponse[0].QueryResponse as Json[];
    expect(blocks.find((b) => b.CreditMemo)?.CreditMemo).toEqual([memo]);
    // The invoice replayed before was last updated in 2014: not a change since.
    expect(blocks.find((b) => b.Invoice)).toBeUndefined();
  });

  it('given a replayed customer with the Id of a generated one, when queried, then the replayed one replaces it', async () => {
    const customer = published('customer').Customer;
    await admin(emu, 'records', { entity: 'Customer', records: [customer] });
    const q = await qboQuery(emu, "SELECT * FROM Customer WHERE Id = '2'");
    expect(q.body.QueryResponse.Customer).toEqual([customer]);
  });

  it('given a record with a field of the wrong shape, when posted, then 400 names the field’s path and nothing is stored', async () => {
    const bad = { ...published('invoice-us-sales-tax').Invoice, Id: '131', MetaData: { LastUpdatedTime: 'soon' } };
    const r = await admin(emu, 'records', { entity: 'Invoice', records: [bad] });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('records.0.MetaData.LastUpdatedTime');
    expect((await qboGet(emu, 'invoice/131')).status).toBe(400);
  });

  it('given CompanyInfo and Preferences posted to /__admin/organisation, when queried, then they are the replayed ones', async () => {
    const companyInfo = published('company-info').CompanyInfo;
    const preferences = published('preferences').Preferences;
    const r = await admin(emu, 'organisation', { CompanyInfo: companyInfo, Preferences: preferences });
    expect(r.status).toBe(200);
    expect((await qboQuery(emu, 'SELECT * FROM CompanyInfo')).body.QueryResponse.CompanyInfo).toEqual([companyInfo]);
    expect((await qboQuery(emu, 'SELECT * FROM Preferences')).body.QueryResponse.Preferences).toEqual([preferences]);
  });
});
