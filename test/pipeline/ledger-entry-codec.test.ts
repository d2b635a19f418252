import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { decodeLedgerEntry, encodeLedgerEntry, FIELD_CODES } from '../../src/pipeline/ledger-entry-codec.js';
import { ledgerEntries } from './ledger-entries.js';

const { invoiceId, invoice, creditNoteId, creditNote, customerId, customer } = ledgerEntries;

/** What reading the entry back gives, as JSON (key order included: it is what a reader sees). */
const roundTrip = (erpId: string, entry: LedgerEntry) =>
  JSON.stringify(decodeLedgerEntry(erpId, encodeLedgerEntry(erpId, entry)));
const isCompact = (json: string) => 'w' in (JSON.parse(json) as object);

describe('ledger entry codec', () => {
  describe('given the entries an upsert writes (invoice, credit note, customer)', () => {
    it.each([
      ['invoice', invoiceId, invoice],
      ['credit note', creditNoteId, creditNote],
      ['customer', customerId, customer],
    ] as const)(
      'when a %s entry is encoded and decoded, then the same entry comes back, key order included, from a shorter compact form',
      (_, erpId, entry) => {
        const stored = encodeLedgerEntry(erpId, entry);
        expect(isCompact(stored)).toBe(true);
        expect(stored.length).toBeLessThan(JSON.stringify(entry).length);
        expect(decodeLedgerEntry(erpId, stored)).toEqual(entry);
        expect(roundTrip(erpId, entry)).toBe(JSON.stringify(entry));
      },
    );

    it('when the typical invoice is encoded, then it takes under 635 bytes (a 640-byte allocation in Redis) instead of ~1,040', () => {
      expect(JSON.stringify(invoice).length).toBeGreaterThan(1_000);
      expect(encodeLedgerEntry(invoiceId, invoice).length).toBeLessThan(635);
    });

    it('when encoded, then the content hash, every digest and the version are stored without loss and the Lua-read keys keep their names', () => {
      const stored = JSON.parse(encodeLedgerEntry(invoiceId, invoice)) as Record<string, unknown>;
      expect(Object.keys(stored)).toEqual(
        expect.arrayContaining(['hash', 'version', 'jobId', 'fields', 'attachmentUrl']),
      );
      expect(stored.version).toBe(invoice.version);
      const decoded = decodeLedgerEntry(invoiceId, JSON.stringify(stored));
      expect(decoded.hash).toBe(invoice.hash);
      for (const [name, value] of Object.entries(invoice.fields!))
        if (name.startsWith('digest:')) expect(decoded.fields![name]).toBe(value);
    });
  });

  describe('given entries written before the compact form (plain JSON of the entry)', () => {
    it.each([
      ['invoice', invoiceId, invoice],
      ['credit note', creditNoteId, creditNote],
      ['customer', customerId, customer],
    ] as const)('when a %s entry is read, then it is exactly what was written', (_, erpId, entry) => {
      const legacy = JSON.stringify(entry);
      expect(JSON.stringify(decodeLedgerEntry(erpId, legacy))).toBe(legacy);
    });

    it('when an invoice entry lacks a field the compact form would restore, then reading it adds nothing', () => {
      const { invoiceNumber: _number, erpId: _erpId, ...fields } = invoice.fields!;
      const legacy = JSON.stringify({ ...invoice, fields });
      expect(decodeLedgerEntry(invoiceId, legacy).fields).toEqual(fields);
    });
  });

  describe('given values the compact form cannot shorten or leave out', () => {
    const cases: Array<[string, string, LedgerEntry]> = [
      [
        'a compared number that differs from the entry number',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, invoiceNumber: 'INV-3750' } },
      ],
      [
        'no compared number while the entry has one',
        invoiceId,
        {
          ...invoice,
          fields: Object.fromEntries(Object.entries(invoice.fields!).filter(([k]) => k !== 'invoiceNumber')),
        },
      ],
      [
        'a compared ERP id that is not the ledger field',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, erpId: '11149000000118273' } },
      ],
      ['a compared number but no entry number', invoiceId, { ...invoice, number: undefined }],
      ['a null compared number', invoiceId, { ...invoice, fields: { ...invoice.fields, invoiceNumber: null } }],
      ['a repair hash', invoiceId, { ...invoice, hash: 'repair' }],
      [
        'a hash that looks like base64url',
        invoiceId,
        { ...invoice, hash: 'yY4aKzxNXm_JjhorPE1eb8mOGis8TV5vyY4aKzxNXm8' },
      ],
      ['an upper-case hex hash', invoiceId, { ...invoice, hash: invoice.hash.toUpperCase() }],
      [
        'a digest that looks like base64url',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, 'digest:tags': 'ORgS3TkYEt05GBLdORgS3Q' } },
      ],
      ['a short digest', invoiceId, { ...invoice, fields: { ...invoice.fields, 'digest:tags': 'abc' } }],
      [
        'a date that is not a calendar day',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, invoiceDate: '2025-02-30' } },
      ],
      [
        'a date in another format',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, invoiceDueDate: '29/01/2025' } },
      ],
      ['a null date', invoiceId, { ...invoice, fields: { ...invoice.fields, invoiceDueDate: null } }],
      ['a date before 1970', invoiceId, { ...invoice, fields: { ...invoice.fields, invoiceDate: '1969-12-31' } }],
      [
        "another connection's buyer",
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, buyerId: 'cust.xero-au.5b3e7c1a' } },
      ],
      [
        'a buyer id that is only the prefix',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, buyerId: 'cust.zoho-in.' } },
      ],
      [
        'a billing id that does not hold the ERP id',
        invoiceId,
        { ...invoice, billingId: 'inv.zoho-in.11149000000~0123456789abcdef0123' },
      ],
      ['a billing id without a connection part', invoiceId, { ...invoice, billingId: `inv-${invoiceId}` }],
      [
        'the ERP id twice in the document link',
        invoiceId,
        { ...invoice, attachmentUrl: `https://x.test/${invoiceId}/${invoiceId}.pdf` },
      ],
      [
        'a document link without the ERP id',
        invoiceId,
        { ...invoice, attachmentUrl: 'https://books.zoho.in/SecurePayment?CInvoiceID=2-3e5a' },
      ],
      ['a source delete', invoiceId, { ...invoice, sourceDeletedAt: '2025-03-01T00:00:00.000Z' }],
      [
        'a compared field no code names yet',
        invoiceId,
        { ...invoice, fields: { ...invoice.fields, 'digest:notes': 'x', dueTerms: 'net 15' } },
      ],
      [
        'compared field names that look like codes or escapes',
        invoiceId,
        { ...invoice, fields: { a: '1', '~b': '2', '~': '3', '': '4', ...invoice.fields } },
      ],
      [
        'compared field names of object properties',
        invoiceId,
        {
          ...invoice,
          fields: JSON.parse('{"__proto__":"1","constructor":"2","toString":null}') as Record<string, string | null>,
        },
      ],
      [
        'compared fields in another order',
        invoiceId,
        { ...invoice, fields: Object.fromEntries(Object.entries(invoice.fields!).reverse()) },
      ],
      ['empty compared fields', invoiceId, { ...invoice, fields: {} }],
      [
        'only fields the compact form leaves out',
        invoiceId,
        { ...invoice, fields: { invoiceNumber: invoice.number!, erpId: invoiceId } },
      ],
      ['an ERP id that is not digits', 'a:b/ç', { ...customer, billingId: 'cust.zoho-in.a_3Ab_2F_C3_A7' }],
      ['an empty ERP id', '', { ...customer, billingId: 'cust.zoho-in.' }],
      ['an ERP id of one character', '7', { ...customer, billingId: 'cust.zoho-in.7' }],
      [
        'an entry number that is a number, and the same compared number',
        invoiceId,
        {
          ...invoice,
          number: 12 as unknown as string,
          fields: { ...invoice.fields, invoiceNumber: 12 as unknown as string },
        },
      ],
      [
        'compared fields whose JSON is their own toJSON',
        invoiceId,
        {
          ...invoice,
          fields: Object.assign(
            { ...invoice.fields },
            { toJSON: () => ({ note: 'longer than the fields themselves '.repeat(40) }) },
          ) as unknown as Record<string, string>,
        },
      ],
    ];
    it.each(cases)('when an entry has %s, then it reads back exactly as it was given', (_, erpId, entry) => {
      expect(roundTrip(erpId, entry)).toBe(JSON.stringify(entry));
    });

    it('when many varied entries are encoded, then each reads back exactly (a deterministic sample of mixes of the cases above)', () => {
      let seed = 42;
      const pick = <T>(xs: readonly T[]): T => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return xs[seed % xs.length]!;
      };
      for (let n = 0; n < 2_000; n++) {
        const [, erpId, base] = pick(cases);
        const [, , other] = pick(cases);
        const entry: LedgerEntry = {
          ...base,
          hash: pick([base.hash, other.hash]),
          number: pick([base.number, other.number, undefined]),
        };
        if (base.fields && other.fields)
          entry.fields = {
            ...other.fields,
            ...Object.fromEntries(Object.entries(base.fields).filter(() => pick([true, false]))),
          };
        expect(roundTrip(erpId, entry)).toBe(JSON.stringify(entry));
      }
    });
  });

  it('given 20,000 generated entries with values of every kind where the compact form shortens or leaves out (look-alikes of base64url, day numbers and templates, dates, objects with toJSON, functions, arrays, numbers, odd keys), when each is encoded, then it reads back exactly, compact or not', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rnd(16)]).join('');
    const ids = [invoiceId, '7', '', 'a:b/ç', '1890000000010245', 'x.y', '__proto__', '5'];
    const names = [
      ...Object.keys(FIELD_CODES),
      'digest:notes',
      'dueTerms',
      'a',
      '~b',
      '~',
      '',
      '__proto__',
      'constructor',
      'toString',
      'toJSON',
      'w',
      '1',
      '02',
    ];
    const oddly = (): unknown =>
      pick([
        () => 1,
        Symbol('s'),
        new Date(0),
        { toJSON: () => 'ORgS3TkYEt05GBLdORgS3Q' },
        { toJSON: () => 20_000 },
        ['x'],
        ['x', 'y'],
        [1],
        { a: 1 },
        NaN,
        -0,
        true,
        20_000,
      ]);
    // Now and then: most entries should be ones the compact form can take.
    const odd = <T>(usual: T): unknown => (rnd(8) ? usual : oddly());
    const own = (o: Record<string, unknown>, k: string, v: unknown) =>
      Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    let compact = 0;
    for (let n = 0; n < 20_000; n++) {
      const erpId = pick(ids);
      const conn = pick(['zoho-in', 'xero-au', 'a.b', '']);
      const number = pick(['INV-1', undefined, 'X', 12, null]);
      const value = () =>
        pick<unknown>([
          null,
          'x',
          hex(32),
          hex(64),
          'ORgS3TkYEt05GBLdORgS3Q',
          'yY4aKzxNXm_JjhorPE1eb8mOGis8TV5vyY4aKzxNXm8',
          '2025-01-14',
          '2025-02-30',
          '1969-12-31',
          `cust.${conn}.${pick(ids)}`,
          `cust.${conn}.`,
          number ?? 'N',
          erpId,
          12,
          undefined,
        ]);
      const entry: Record<string, unknown> = {};
      if (rnd(6))
        entry.hash = odd(
          pick([hex(64), hex(64), hex(64).toUpperCase(), 'repair', 'yY4aKzxNXm_JjhorPE1eb8mOGis8TV5vyY4aKzxNXm8']),
        );
      if (rnd(6)) entry.version = '2025-02-07T11:54:10.000Z';
      if (rnd(6))
        entry.billingId = odd(
          pick([`inv.${conn}.${erpId}`, `inv.${conn}.${erpId}`, `inv-${erpId}`, 'inv.zoho-in.11149000000~0123']),
        );
      if (rnd(6) && number !== undefined) entry.number = number;
      if (rnd(6)) entry.sourceStatus = 'partially_paid';
      if (rnd(6)) entry.writtenAt = odd(pick([1_795_592_093_207, -0]));
      if (rnd(6)) {
        const fields = rnd(30) ? {} : pick<unknown>([new Date(0), [], 'fields', null]);
        if (fields && typeof fields === 'object' && !Array.isArray(fields) && !(fields instanceof Date)) {
          // The fields decode can restore, often with the values it restores them from, before or after the others.
          const derivable = () => {
            if (rnd(4)) own(fields as Record<string, unknown>, 'invoiceNumber', pick([number, number, 'INV-1', 12]));
            if (rnd(4)) own(fields as Record<string, unknown>, 'erpId', pick([erpId, erpId, 'other']));
          };
          if (rnd(2)) derivable();
          for (let i = rnd(14); i > 0; i--) own(fields as Record<string, unknown>, pick(names), odd(value()));
          if (rnd(2)) derivable();
        }
        entry.fields = fields;
      }
      if (rnd(6))
        entry.attachmentUrl = odd(
          pick([`https://x/${erpId}.pdf`, `https://x/${erpId}/${erpId}.pdf`, 'https://nothing']),
        );
      if (!rnd(40)) own(entry, pick(['b', 'toJSON', '1']), pick(['odd', () => ({ x: 1 })]));
      const stored = encodeLedgerEntry(erpId, entry as unknown as LedgerEntry);
      if (isCompact(stored)) compact++;
      expect(JSON.stringify(decodeLedgerEntry(erpId, stored)), stored).toBe(JSON.stringify(entry));
    }
    expect(compact).toBeGreaterThan(1_000);
  });

  it('given the field codes, then each is one character and names one field (codes are stored in Redis and never reassigned)', () => {
    const codes = Object.values(FIELD_CODES);
    expect(codes.every((c) => c.length === 1)).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
