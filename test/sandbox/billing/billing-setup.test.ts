import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ContractFeeComponentRatecardRecord,
  ContractRecord,
  envelopeOf,
  FeeComponentRatecards,
  FeeComponentTagRecord,
  paginatedOf,
  RatecardRecord,
} from '../../../src/billing/schemas/index.js';
import { seedBillingSetup } from '../../../sandbox/billing/seed.js';
import { type Api, GLOBEX_KEY, startApi } from './helpers.js';

describe('billing-setup seed data', () => {
  it('given a seed, when generated twice, then the data is identical; another seed or company differs', () => {
    expect(seedBillingSetup('acme', 7, 'INR')).toEqual(seedBillingSetup('acme', 7, 'INR'));
    expect(seedBillingSetup('acme', 8, 'INR')).not.toEqual(seedBillingSetup('acme', 7, 'INR'));
    expect(seedBillingSetup('globex', 7, 'INR').contracts[0]!.id).toBe('ctr_globex_001');
  });

  it('given generated data, when parsed with the billing-setup record schemas, then every record parses', () => {
    const s = seedBillingSetup('acme', 1, 'USD');
    for (const c of s.contracts) expect(ContractRecord.parse(c)).toBeTruthy();
    for (const r of s.ratecards) expect(RatecardRecord.parse(r).currency).toBe('USD');
    for (const t of s.tags) expect(FeeComponentTagRecord.parse(t)).toBeTruthy();
    for (const a of s.associations) expect(ContractFeeComponentRatecardRecord.parse(a)).toBeTruthy();
  });
});

describe('billing emulator: contracts, fee components, rate cards', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ seed: 3, baseCurrency: { globex: 'USD' } });
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const contracts = async (query: Record<string, any> = {}, headers?: Record<string, string>) =>
    (await api.get('/billing/contract/filter', { query, headers })).body;

  it('given seeded contracts, when filtered, then the container parses and filters by status, buyer, period, frequency and next billing date', async () => {
    const all = await contracts();
    expect(envelopeOf(paginatedOf(ContractRecord)).safeParse(all).success).toBe(true);
    expect(all.data.totalDocs).toBe(8);
    const first = all.data.docs[0];
    expect((await contracts({ status: 'ACTIVE' })).data.docs.every((c: any) => c.status === 'ACTIVE')).toBe(true);
    expect((await contracts({ buyerId: first.buyerId })).data.docs.every((c: any) => c.buyerId === first.buyerId)).toBe(
      true,
    );
    expect((await contracts({ customerId: first.customerId })).data.totalDocs).toBeGreaterThan(0);
    const byPeriod = await contracts({
      contractDurationValue: first.contractPeriod.value,
      contractDurationUnit: 'YEAR',
    });
    expect(byPeriod.data.docs.map((c: any) => c.id)).toContain(first.id);
    const byFrequency = await contracts({
      billingFrequencyValue: first.billingFrequency.value,
      billingFrequencyUnit: first.billingFrequency.unit,
    });
    expect(byFrequency.data.docs.every((c: any) => c.billingFrequency.unit === first.billingFrequency.unit)).toBe(true);
    const day = first.nextBillingDate;
    expect(
      (await contracts({ nextBillingDateStart: day, nextBillingDateEnd: day })).data.docs.map((c: any) => c.id),
    ).toContain(first.id);
    expect((await contracts({ pageSize: 3, pageNumber: 3 })).data).toMatchObject({
      totalPages: 3,
      hasNext: false,
      docs: [{}, {}],
    });
    expect((await contracts({ status: 'OPEN' })).error).toBe('BAD_REQUEST');
  });

  it('given the fields mask header, when contracts are filtered, then only those fields and id are kept', async () => {
    const r = await contracts({ pageSize: 1 }, { 'X-Fields-Mask': 'contractNumber, status' });
    expect(Object.keys(r.data.docs[0]).sort()).toEqual(['contractNumber', 'id', 'status']);
  });

  it('given each company, when contracts are listed, then each sees only its own (ids and currency)', async () => {
    const globex = (await api.get('/billing/contract/filter', { key: GLOBEX_KEY })).body.data.docs;
    expect(globex.every((c: any) => c.id.startsWith('ctr_globex_') && c.currency === 'USD')).toBe(true);
    const acmeId = (await contracts()).data.docs[0].id;
    const cross = await api.post(
      '/billing/contract/feeComponent',
      { contractId: acmeId, feeComponentId: 'fc_globex_01' },
      { key: GLOBEX_KEY },
    );
    expect(cross.status).toBe(404);
  });

  it('given a contract, when a fee component is added, then the contract lists it; adding it again is 409; unknown ids 404', async () => {
    const c = (await contracts()).data.docs[0];
    const fc = 'fc_acme_04';
    const added = await api.post('/billing/contract/feeComponent', { contractId: c.id, feeComponentId: fc });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ totalDocs: 1, docs: [{ id: c.id }] });
    expect(added.body.data.docs[0].feeComponents.map((f: any) => f.feeComponentId)).toContain(fc);
    expect((await api.post('/billing/contract/feeComponent', { contractId: c.id, feeComponentId: fc })).status).toBe(
      409,
    );
    expect(
      (await api.post('/billing/contract/feeComponent', { contractId: 'ctr_x', feeComponentId: fc })).body.message,
    ).toContain('contractId');
    expect(
      (await api.post('/billing/contract/feeComponent', { contractId: c.id, feeComponentId: 'fc_x' })).status,
    ).toBe(404);
  });

  it('given a fee component on a contract, when rate cards are selected, then associations appear (endpoint 16) and wrong choices are rejected', async () => {
    const c = (await contracts()).data.docs[2];
    const fcId = c.feeComponents[0].feeComponentId;
    const fetched = await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`, { query: { contractId: c.id } });
    expect(envelopeOf(FeeComponentRatecards).safeParse(fetched.body).success).toBe(true);
    const rc = fetched.body.data.ratecards[0];
    const path = `/billing/contract/feeComponent/ratecard/${c.id}`;
    const selected = await api.post(
      path,
      { feeComponentId: fcId, ratecardRelations: [{ ratecardId: rc.id }] },
      { headers: { 'X-Fields-Mask': 'feeComponents' } },
    );
    expect(selected.status).toBe(200);
    expect(selected.body.data.docs[0]).toEqual({
      id: c.id,
      feeComponents: expect.arrayContaining([{ feeComponentId: fcId, ratecardIds: [rc.id] }]),
    });
    const assoc = await api.get('/billing/contract/feeComponent/ratecard', { query: { contractId: c.id } });
    expect(z.array(ContractFeeComponentRatecardRecord).parse(assoc.body.data)).toEqual([
      expect.objectContaining({
        contractId: c.id,
        feeComponentId: fcId,
        ratecardId: rc.id,
        status: 'ACTIVE',
        companyId: 'acme',
      }),
    ]);

    const otherFc = (await api.get('/billing/ratecard/feeComponent/fetch/fc_acme_02')).body.data.ratecards[0];
    const wrongCard = await api.post(path, { feeComponentId: fcId, ratecardRelations: [{ ratecardId: otherFc.id }] });
    expect(wrongCard.status).toBe(400);
    expect(wrongCard.body.message).toContain('ratecardRelations.0.ratecardId');
    const notOnContract = await api.post(path, {
      feeComponentId: fcId === 'fc_acme_04' ? 'fc_acme_01' : 'fc_acme_04',
      ratecardRelations: [{ ratecardId: rc.id }],
    });
    expect(notOnContract.status).toBe(400);
    expect(notOnContract.body.message).toContain('feeComponentId');
    expect(
      (await api.post(path, { feeComponentId: fcId, ratecardRelations: [{ ratecardId: 'rc_none' }] })).status,
    ).toBe(404);
    expect(
      (
        await api.post('/billing/contract/feeComponent/ratecard/ctr_none', {
          feeComponentId: fcId,
          ratecardRelations: [{ ratecardId: rc.id }],
        })
      ).status,
    ).toBe(404);
    expect((await api.post(path, { feeComponentId: fcId, ratecardRelations: [] })).body.message).toContain(
      'ratecardRelations: ',
    );
  });

  it("given a fee component, when its rate cards are fetched, then defaults come back, contractId adds the contract's own, and empty tag values can be dropped", async () => {
    const c = (await contracts()).data.docs[0];
    const fcId = c.feeComponents[0].feeComponentId;
    const defaults = (await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`)).body.data;
    expect(defaults.ratecards.every((r: any) => r.contractId === null && r.feeComponentId === fcId)).toBe(true);
    expect(defaults.tags).toEqual({ region: ['IN', 'US', 'EU'], tier: ['standard', 'premium'] });
    const withContract = (
      await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`, { query: { contractId: c.id } })
    ).body.data;
    expect(withContract.ratecards.length).toBe(defaults.ratecards.length + 1);
    const used = (
      await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`, { query: { includeEmptyTagCombinations: false } })
    ).body.data;
    for (const [name, values] of Object.entries(used.tags as Record<string, string[]>)) {
      for (const v of values) expect(defaults.ratecards.some((r: any) => r.tags[name] === v)).toBe(true);
    }
    const masked = (
      await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`, { headers: { 'X-Fields-Mask': 'name' } })
    ).body.data;
    expect(Object.keys(masked.ratecards[0]).sort()).toEqual(['id', 'name']);
    expect((await api.get('/billing/ratecard/feeComponent/fetch/fc_none')).status).toBe(404);
    expect(
      (await api.get(`/billing/ratecard/feeComponent/fetch/${fcId}`, { query: { contractId: 'ctr_none' } })).status,
    ).toBe(404);
  });

  it('given a fee component, when its tags are fetched, then the tag records come back; unknown is 404', async () => {
    const r = await api.get('/billing/feeComponentTag/fetch/feeComponent/fc_acme_01');
    expect(
      z
        .array(FeeComponentTagRecord)
        .parse(r.body.data)
        .map((t) => t.name),
    ).toEqual(['region', 'tier']);
    expect((await api.get('/billing/feeComponentTag/fetch/feeComponent/fc_none')).status).toBe(404);
  });

  it('given the seeded association, when endpoint 16 is filtered by fee component, then it comes back; unknown filters match nothing', async () => {
    const all = (await api.get('/billing/contract/feeComponent/ratecard')).body.data;
    expect(all).toHaveLength(1);
    expect(
      (await api.get('/billing/contract/feeComponent/ratecard', { query: { feeComponentId: all[0].feeComponentId } }))
        .body.data,
    ).toHaveLength(1);
    expect(
      (await api.get('/billing/contract/feeComponent/ratecard', { query: { contractId: 'ctr_none' } })).body.data,
    ).toEqual([]);
  });
});
