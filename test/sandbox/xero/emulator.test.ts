import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_TENANTS,
  generateData,
  parseMsDate,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS as D,
  type XeroEmulator,
  type XeroInvoice,
} from '../../../sandbox/xero/index.js';
import { Money } from '../../../src/mapping/index.js';

let emu: XeroEmulator;
let token: string;
beforeAll(async () => {
  emu = await startXeroEmulator({ records: 40, contacts: 16, creditNotes: 12 });
});
afterAll(async () => emu.close());
beforeEach(async () => {
  emu.reset();
  token = ((await refresh(D.refreshToken)).body as { access_token: string }).access_token;
});

const basic = `Basic ${Buffer.from(`${D.clientId}:${D.clientSecret}`).toString('base64')}`;
async function refresh(refreshToken: string, auth = basic) {
  const res = await fetch(emu.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function api(
  path: string,
  init: { tenant?: string | null; accept?: string | null; ims?: string; bearer?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${init.bearer ?? token}` };
  if (init.tenant !== null) headers['xero-tenant-id'] = init.tenant ?? emu.tenantIds[0]!;
  if (init.accept !== null) headers.accept = init.accept ?? 'application/json';
  if (init.ims) headers['if-modified-since'] = init.ims;
  const res = await fetch(`${emu.apiBase}/${path}`, { headers });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const invoicesOf = (r: { json?: Record<string, unknown> }) => (r.json?.Invoices ?? []) as XeroInvoice[];
const q = (where: string) => encodeURIComponent(where);

describe('Xero emulator', () => {
  it('given the generated history, then sales lines carry tracking categories, some owed invoices an ExpectedPaymentDate after their due date, and some customers a default sales tracking', async () => {
    const invoices = invoicesOf(await api(`Invoices?page=1&pageSize=1000&where=${q('Type=="ACCREC"')}`));
    const tracked = invoices.flatMap((i) => i.LineItems.flatMap((l) => l.Tracking));
    expect(new Set(tracked.map((t) => t.Name))).toEqual(new Set(['Region', 'Sales channel']));
    expect(tracked.every((t) => t.Option && t.TrackingCategoryID && t.TrackingOptionID)).toBe(true);
    const promised = invoices.filter((i) => i.ExpectedPaymentDate);
    expect(promised.length).toBeGreaterThan(0);
    for (const i of promised) {
      expect(i.Status).toBe('AUTHORISED');
      expect(parseMsDate(i.ExpectedPaymentDate)!).toBeGreaterThanOrEqual(parseMsDate(i.DueDate)!);
    }
    const contacts = ((await api('Contacts?page=1&includeArchived=true')).json?.Contacts ?? []) as Array<
      Record<string, any>
    >;
    expect(contacts.some((c) => c.SalesTrackingCategories?.[0]?.TrackingOptionName)).toBe(true);
  });

  it('given no xero-tenant-id or an unknown one, then 403 problem; GET /connections lists both organisations', async () => {
    const missing = await api('Invoices', { tenant: null });
    expect(missing.status).toBe(403);
    expect(missing.json).toMatchObject({ Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' });
    expect((await api('Invoices', { tenant: '11111111-1111-4111-8111-111111111111' })).status).toBe(403);
    const res = await fetch(`${emu.url}/connections`, { headers: { authorization: `Bearer ${token}` } });
    const list = (await res.json()) as Array<{ tenantId: string; tenantType: string; tenantName: string }>;
    expect(list.map((c) => [c.tenantId, c.tenantType])).toEqual(emu.tenantIds.map((id) => [id, 'ORGANISATION']));
  });

  it('given no Accept header, then XML; with Accept: application/json, then the JSON envelope with a suffix-less DateTimeUTC', async () => {
    const xml = await api('Organisation', { accept: null });
    expect(xml.headers.get('content-type')).toContain('text/xml');
    expect(xml.text).toMatch(/^<Response [^>]*><Id>.*<Organisations><Organisation><OrganisationID>/);
    const json = await api('Organisation');
    expect(json.json).toMatchObject({ Status: 'OK', Organisations: [{ BaseCurrency: 'INR' }] });
    expect(json.json?.DateTimeUTC).toMatch(/^\/Date\(\d+\)\/$/);
    expect((await api('Organisation', { tenant: emu.tenantIds[1] })).json).toMatchObject({
      Organisations: [{ BaseCurrency: 'AUD' }],
    });
  });

  it('given page, then a pagination block and line items; without page, summaries without line items; dates as /Date(ms+0000)/', async () => {
    const paged = await api('Invoices?page=2&pageSize=10');
    const all = emu.store.invoices(emu.tenantIds[0]!).filter((i) => i.Status !== 'DELETED');
    expect(paged.json?.pagination).toEqual({
      page: 2,
      pageSize: 10,
      pageCount: Math.ceil(all.length / 10),
      itemCount: all.length,
    });
    expect(invoicesOf(paged).every((i) => Array.isArray(i.LineItems))).toBe(true);
    const summary = await api('Invoices');
    expect(summary.json?.pagination).toBeUndefined();
    expect(invoicesOf(summary).length).toBe(all.length);
    expect(invoicesOf(summary).every((i) => i.LineItems === undefined)).toBe(true);
    const first = invoicesOf(paged)[0]!;
    expect(first.Date).toMatch(/^\/Date\(\d+\+0000\)\/$/);
    expect(first.UpdatedDateUTC).toMatch(/^\/Date\(\d+\+0000\)\/$/);
    expect(first.DateString).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
  });

  it('given where, Statuses, order and If-Modified-Since, then the list is filtered and ordered as asked, DELETED only when asked for', async () => {
    const t = emu.tenantIds[0]!;
    const store = emu.store.invoices(t);
    const accrec = invoicesOf(await api(`Invoices?where=${q('Type=="ACCREC"')}`));
    expect(accrec.length).toBe(store.filter((i) => i.Type === 'ACCREC' && i.Status !== 'DELETED').length);
    const withDeleted = invoicesOf(
      await api(`Invoices?where=${q('Type=="ACCREC"')}&Statuses=DRAFT,SUBMITTED,AUTHORISED,PAID,VOIDED,DELETED`),
    );
    expect(withDeleted.length).toBe(store.filter((i) => i.Type === 'ACCREC').length);
    const voided = invoicesOf(await api(`Invoices?where=${q('Status=="VOIDED"')}`));
    expect(voided.length).toBeGreaterThan(0);
    expect(voided.every((i) => i.Status === 'VOIDED')).toBe(true);
    const jan = invoicesOf(
      await api(`Invoices?where=${q('Date>=DateTime(2025,01,01) AND Date<=DateTime(2025,01,31)')}`),
    );
    expect(jan.every((i) => i.DateString >= '2025-01-01' && i.DateString <= '2025-01-31T00:00:00')).toBe(true);
    const desc = invoicesOf(await api('Invoices?order=UpdatedDateUTC%20DESC'));
    const stamps = desc.map((i) => parseMsDate(i.UpdatedDateUTC)!);
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);

    const median = [...store.map((i) => parseMsDate(i.UpdatedDateUTC)!)].sort((a, b) => a - b)[20]!;
    const header = new Date(median).toISOString().slice(0, 19);
    const since = invoicesOf(await api('Invoices', { ims: header }));
    // Default mode 'after': modified after the header's whole second.
    expect(since.every((i) => Math.floor(parseMsDate(i.UpdatedDateUTC)! / 1000) > Math.floor(median / 1000))).toBe(
      true,
    );
    emu.configure({ ifModifiedSince: 'at-or-after' });
    const inclusive = invoicesOf(await api('Invoices', { ims: header }));
    expect(inclusive.every((i) => parseMsDate(i.UpdatedDateUTC)! >= Math.floor(median / 1000) * 1000)).toBe(true);
    expect(inclusive.length).toBeGreaterThanOrEqual(since.length);
  });

  it('given contacts, then ARCHIVED ones only with includeArchived=true', async () => {
    const t = emu.tenantIds[0]!;
    const archived = emu.store.contacts(t).filter((c) => c.ContactStatus === 'ARCHIVED').length;
    expect(archived).toBeGreaterThan(0);
    const without = (await api('Contacts')).json?.Contacts as unknown[];
    const withArchived = (await api('Contacts?includeArchived=true')).json?.Contacts as unknown[];
    expect(withArchived.length - without.length).toBe(archived);
  });

  it('given the minute limit spent, then 429 with Retry-After and X-Rate-Limit-Problem: minute; X-*Limit-Remaining on every response', async () => {
    emu.configure({ ratePerMinute: 3 });
    const ok = await api('Organisation');
    expect(ok.headers.get('x-minlimit-remaining')).toBe('2');
    expect(ok.headers.get('x-daylimit-remaining')).toBe('4999');
    expect(ok.headers.get('x-appminlimit-remaining')).toBe('9999');
    await api('Organisation');
    await api('Organisation');
    const limited = await api('Organisation');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-rate-limit-problem')).toBe('minute');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(limited.headers.get('x-minlimit-remaining')).toBe('0');
    // Another organisation has its own minute.
    expect((await api('Organisation', { tenant: emu.tenantIds[1] })).status).toBe(200);
  });

  it('given the day limit spent, then 429 day with the seconds to the reset, and after the reset the organisation answers again', async () => {
    emu.limiter.setDay(emu.tenantIds[0]!, { used: D.dailyLimit, resetInSeconds: 30 });
    const limited = await api('Organisation');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-rate-limit-problem')).toBe('day');
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('x-daylimit-remaining')).toBe('0');
    emu.clock.set({ advanceSeconds: 31 });
    const after = await api('Organisation');
    expect(after.status).toBe(200);
    expect(after.headers.get('x-daylimit-remaining')).toBe('4999');
  });

  it('given more than 5 calls at once on one organisation, then the sixth is refused as concurrent', async () => {
    emu.configure({ latencyMs: 150 });
    const statuses = await Promise.all(Array.from({ length: 7 }, () => api('Organisation').then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(emu.stats().rateLimited.concurrent).toBe(2);
  });

  it('given bad queries, tokens and paths, then ValidationException, QueryParseException, 401 problems and plain-text 404/503', async () => {
    expect((await api('Invoices?page=1&pageSize=5000')).json).toMatchObject({
      ErrorNumber: 10,
      Type: 'ValidationException',
      Elements: [{ ValidationErrors: [{ Message: expect.stringContaining('pageSize') }] }],
    });
    expect((await api('Invoices?page=1&pageSize=5000', { accept: null })).text).toMatch(
      /^<ApiException .*<Type>ValidationException<\/Type>/,
    );
    expect((await api(`Invoices?where=${q('Type==')}`)).json).toMatchObject({ Type: 'QueryParseException' });
    expect((await api('Invoices', { bearer: 'nope' })).json).toMatchObject({
      Status: 401,
      Detail: 'AuthenticationUnsuccessful',
    });
    emu.tokens.expireAll();
    expect((await api('Invoices')).json).toMatchObject({ Status: 401, Detail: 'TokenExpired' });
    token = ((await refresh(emu.tokens.liveRefreshTokens[0]!)).body as { access_token: string }).access_token;
    const missing = await api('Invoices/INV-9999');
    expect([missing.status, missing.text]).toEqual([404, "The resource you're looking for cannot be found"]);
    expect((await api('Nope')).status).toBe(404);
    emu.faults.set({ errorNext: 1, errorStatus: 503 });
    const offline = await api('Invoices');
    expect([offline.status, offline.text]).toEqual([503, 'The Organisation is offline']);
  });

  it('given a refresh token, then it works once: reuse answers invalid_grant; a wrong client answers invalid_client', async () => {
    const live = emu.tokens.liveRefreshTokens[0]!;
    const r = await refresh(live);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ expires_in: 1800, token_type: 'Bearer' });
    expect(r.body.refresh_token).not.toBe(live);
    expect(await refresh(live)).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect(await refresh(r.body.refresh_token as string, `Basic ${Buffer.from('x:y').toString('base64')}`)).toEqual({
      status: 400,
      body: { error: 'invalid_client' },
    });
    // Client credentials as form fields work too.
    const form = await fetch(emu.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: r.body.refresh_token as string,
        client_id: D.clientId,
        client_secret: D.clientSecret,
      }).toString(),
    });
    expect(form.status).toBe(200);
  });

  it('given the same seed, then the same data; every document adds up exactly (decimals) in both organisations', () => {
    const opts = {
      seed: 42,
      records: 50,
      contacts: 12,
      creditNotes: 15,
      tenants: DEFAULT_TENANTS,
      anchor: D.anchor,
      days: 90,
      convention: 'foreign-per-base' as const,
    };
    const a = generateData(opts);
    expect(JSON.stringify(generateData(opts))).toBe(JSON.stringify(a));
    expect(JSON.stringify(generateData({ ...opts, seed: 43 }))).not.toBe(JSON.stringify(a));
    const kinds = new Set<string>();
    for (const d of a) {
      for (const doc of [...d.invoices, ...d.creditNotes]) {
        const nets = doc.LineItems.map((l) =>
          doc.LineAmountTypes === 'Inclusive' ? new Money(l.LineAmount).minus(l.TaxAmount) : new Money(l.LineAmount),
        );
        expect(nets.reduce((s, x) => s.plus(x), new Money(0)).eq(doc.SubTotal)).toBe(true);
        expect(doc.LineItems.reduce((s, l) => s.plus(l.TaxAmount), new Money(0)).eq(doc.TotalTax)).toBe(true);
        expect(new Money(doc.SubTotal).plus(doc.TotalTax).eq(doc.Total)).toBe(true);
        kinds.add(`${doc.Status}:${doc.LineAmountTypes}`);
        if (doc.LineItems.some((l) => l.DiscountRate !== undefined || l.DiscountAmount !== undefined))
          kinds.add('discount');
      }
      for (const inv of d.invoices) {
        if (inv.Status !== 'VOIDED' && inv.Status !== 'DELETED')
          expect(new Money(inv.Total).minus(inv.AmountPaid).minus(inv.AmountCredited).eq(inv.AmountDue)).toBe(true);
        if (inv.AmountPaid > 0 && inv.AmountDue > 0) kinds.add('partial');
        if (inv.AmountCredited > 0) kinds.add('credited');
      }
      for (const cn of d.creditNotes) {
        const allocated = cn.Allocations.reduce((s, x) => s.plus(x.Amount), new Money(0));
        if (cn.Status === 'AUTHORISED' || cn.Status === 'PAID')
          expect(allocated.plus(cn.RemainingCredit).eq(cn.Total)).toBe(true);
      }
      expect(d.contacts.some((c) => c.ContactStatus === 'ARCHIVED')).toBe(true);
    }
    for (const k of ['VOIDED:Exclusive', 'PAID:Inclusive', 'AUTHORISED:NoTax', 'discount', 'partial', 'credited'])
      expect(kinds.has(k), k).toBe(true);
    expect([...kinds].some((k) => k.startsWith('DELETED:'))).toBe(true);
  });

  it('given admin changes in one batch, then they share one UpdatedDateUTC stamped by the settable clock; refused changes answer 400', async () => {
    const t = emu.tenantIds[0]!;
    await fetch(`${emu.url}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ now: '2026-05-01T12:00:00.000Z', frozen: true }),
    });
    const open = emu.store
      .invoices(t)
      .filter((i) => i.Type === 'ACCREC' && i.Status === 'AUTHORISED' && i.AmountPaid === 0 && i.AmountCredited === 0);
    const draft = emu.store.invoices(t).find((i) => i.Type === 'ACCREC' && i.Status === 'DRAFT')!;
    const res = await fetch(`${emu.url}/__admin/tenants/${t}/ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ops: [
          { op: 'edit-invoice', id: open[0]!.InvoiceID, reference: 'PO-NEW' },
          { op: 'void-invoice', id: open[1]!.InvoiceID },
          { op: 'pay-invoice', id: open[2]!.InvoiceID, amount: 1 },
          { op: 'delete-invoice', id: draft.InvoiceID },
          { op: 'create-invoice', lineAmountTypes: 'Inclusive' },
        ],
      }),
    });
    const { results } = (await res.json()) as { results: Array<{ id: string }> };
    const stamps = new Set(results.map((r) => emu.store.invoice(t, r.id).UpdatedDateUTC));
    expect([...stamps]).toEqual([`/Date(${Date.parse('2026-05-01T12:00:00.000Z')}+0000)/`]);
    expect(emu.store.invoice(t, open[1]!.InvoiceID).Status).toBe('VOIDED');
    expect(emu.store.invoice(t, draft.InvoiceID).Status).toBe('DELETED');
    const refused = await fetch(`${emu.url}/__admin/tenants/${t}/ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'void-invoice', id: draft.InvoiceID }),
    });
    expect(refused.status).toBe(400);
    const stats = (await (await fetch(`${emu.url}/__admin/stats`)).json()) as {
      records: Record<string, { invoices: number }>;
    };
    expect(stats.records[t]!.invoices).toBe(41);
  });
});
