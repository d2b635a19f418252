import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingBody, MapContext, ReadContext, SourceRecord } from '../../../../src/connector/types.js';
import zohoBooks from '../../../../connectors/zoho-books/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../../../sandbox/zoho-books/index.js';
import { TokenStore } from '../../../../src/auth/token-store.js';
import { CreditNoteUpsertBody, InvoiceUpsertBody } from '../../../../src/billing/schemas/index.js';
import { createLogger } from '../../../../src/observability/logger.js';
import { dec, QUARANTINE_REASON_CODES, sumMoney } from '../../../../src/mapping/index.js';
import { connect, dropPrefix, testPrefix } from '../../../support/redis.js';

/**
 * The emulator's generated records, read once through the real client and streams, then randomly
 * perturbed: the mappers return a schema-valid body or a typed quarantine reason and never throw; the
 * untouched records all map, and their money adds up exactly.
 */
describe('Zoho mapping over generated and perturbed records (property)', () => {
  const prefix = testPrefix('zoho-prop');
  let redis: Redis;
  let emu: ZohoEmulator;
  let invoices: SourceRecord<Record<string, unknown>>[] = [];
  let creditNotes: SourceRecord<Record<string, unknown>>[] = [];
  let ctx: MapContext;

  beforeAll(async () => {
    redis = connect();
    emu = await startZohoEmulator({
      port: 0,
      seed: 17,
      records: 60,
      customers: 15,
      creditNotes: 15,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
    const tokens = new TokenStore(redis, { prefix });
    const d = ZOHO_SANDBOX_DEFAULTS;
    const settings = zohoBooks.settings.parse({
      organizationId: emu.organizationId,
      clientId: d.clientId,
      clientSecret: d.clientSecret,
      refreshToken: d.refreshToken,
      baseUrl: emu.apiBase,
      accountsUrl: emu.url,
      dailyCallLimit: 0,
    });
    await tokens.seed('zoho-prop', d.refreshToken);
    const http = zohoBooks.createClient({ connectionId: 'zoho-prop', settings, tokens });
    const read: ReadContext = {
      connectionId: 'zoho-prop',
      http,
      logger: createLogger({ level: 'silent', format: 'json' }),
      until: new Date(Date.now() + 86_400_000),
      settings,
    };
    const inv = zohoBooks.streams.invoices;
    ctx = {
      connectionId: 'zoho-prop',
      originSource: 'EXTERNAL_SYSTEM_A',
      baseCurrency: 'INR',
      lookups: await inv.lookups!(read),
    };
    for await (const p of inv.read(read, inv.initialState(undefined))) invoices.push(...p.records);
    const cn = zohoBooks.streams['credit-notes'];
    for await (const p of cn.read(read, cn.initialState(undefined))) creditNotes.push(...p.records);
  }, 60_000);
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
    await emu.close();
  });

  const valid = (b: BillingBody) =>
    b.kind === 'invoice'
      ? InvoiceUpsertBody.safeParse({ invoice: b.invoice }).success
      : b.kind === 'credit-note'
        ? CreditNoteUpsertBody.safeParse({ creditNote: b.creditNote }).success
        : true;

  it('given the untouched generated records, then every one maps to a schema-valid body whose lines add up exactly', () => {
    expect(invoices.length).toBeGreaterThanOrEqual(60);
    for (const r of invoices) {
      const m = zohoBooks.streams.invoices.map(r, ctx);
      expect(m.ok, `${r.id}: ${m.ok ? '' : `${m.reason} ${m.message}`}`).toBe(true);
      if (!m.ok || m.value.kind !== 'invoice') continue;
      expect(valid(m.value)).toBe(true);
      const i = m.value.invoice;
      const lines = sumMoney((i.lineItems ?? []).map((l) => dec(l.subTotal)));
      expect(lines.equals(dec(i.invoiceSubtotal)), `${r.id}: lines ${lines} ≠ subtotal ${i.invoiceSubtotal}`).toBe(
        true,
      );
    }
    for (const r of creditNotes) {
      const m = zohoBooks.streams['credit-notes'].map(r, ctx);
      expect(m.ok, `${r.id}: ${m.ok ? '' : `${m.reason} ${m.message}`}`).toBe(true);
      if (m.ok) expect(valid(m.value)).toBe(true);
    }
  });

  const fields = [
    'sub_total',
    'total',
    'tax_total',
    'balance',
    'payment_made',
    'exchange_rate',
    'currency_code',
    'date',
    'status',
    'place_of_supply',
    'line_items',
    'taxes',
    'discount',
    'customer_id',
    'invoice_number',
  ];
  const values = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.constant('abc'),
    fc.constant('1,200.00'),
    fc.constant(''),
    fc.double(),
    fc.integer({ min: -3, max: 3 }).map((n) => n / 100),
    fc.constant(0),
    fc.constant(1),
    fc.constant([]),
    fc.constant({}),
  );
  const lineFields = ['item_total', 'rate', 'quantity', 'tax_id', 'discount', 'hsn_or_sac'];

  it('given random perturbations of invoices and credit notes, then mapping returns a valid body or a typed quarantine reason, never throws', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.boolean(),
        fc.oneof(
          fc.record({ field: fc.constantFrom(...fields), value: values }),
          fc.record({ line: fc.constantFrom(...lineFields), value: values }),
        ),
        (n, credit, change) => {
          const list = credit ? creditNotes : invoices;
          const source = list[n % list.length]!;
          const raw = structuredClone(source.raw);
          if ('field' in change) {
            if (change.value === undefined) delete raw[change.field];
            else raw[change.field] = change.value;
          } else {
            const lines = raw.line_items as Array<Record<string, unknown>> | undefined;
            if (lines?.[0]) lines[0][change.line] = change.value;
          }
          const stream = credit ? zohoBooks.streams['credit-notes'] : zohoBooks.streams.invoices;
          const m = stream.map({ ...source, raw }, ctx);
          if (m.ok) expect(valid(m.value)).toBe(true);
          else expect(QUARANTINE_REASON_CODES).toContain(m.reason);
        },
      ),
      { numRuns: 400 },
    );
  });
});
