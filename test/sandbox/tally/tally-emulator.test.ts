import { afterEach, describe, expect, it } from 'vitest';
import { startTallyEmulator, type TallyEmulator } from '../../../sandbox/tally/index.js';

/**
 * The TallyPrime emulator over loopback, as a client sees it: the XML envelope in UTF-8 and UTF-16LE,
 * inline TDL collections filtered by AlterID and type, the company's AlterIDs, company errors, one
 * request at a time, and data that is a function of the seed.
 */

let emu: TallyEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

function envelope(o: { company?: string; type: string; fetch: string; filters?: string[] }): string {
  const formulae = (o.filters ?? []).map((f, i) => `<SYSTEM TYPE="Formulae" NAME="F${i}">${f}</SYSTEM>`).join('');
  const names = (o.filters ?? []).map((_, i) => `F${i}`).join(',');
  return (
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE><ID>Q</ID></HEADER>' +
    '<BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>' +
    (o.company ? `<SVCURRENTCOMPANY>${o.company}</SVCURRENTCOMPANY>` : '') +
    '<SVFROMDATE>19000101</SVFROMDATE><SVTODATE>20991231</SVTODATE></STATICVARIABLES>' +
    `<TDL><TDLMESSAGE><COLLECTION NAME="Q"><TYPE>${o.type}</TYPE><FETCH>${o.fetch}</FETCH>` +
    (names ? `<FILTER>${names}</FILTER>` : '') +
    `</COLLECTION>${formulae}</TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>`
  );
}

async function post(url: string, xml: string, encoding: 'utf8' | 'utf16le' = 'utf8') {
  const body =
    encoding === 'utf16le' ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]) : Buffer.from(xml);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': `text/xml; charset=${encoding === 'utf16le' ? 'utf-16' : 'utf-8'}` },
    body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, text: encoding === 'utf16le' ? bytes.subarray(2).toString('utf16le') : bytes.toString('utf8') };
}

const count = (text: string, tag: string) => text.split(`<${tag} `).length - 1;

describe('the TallyPrime emulator', () => {
  it('given a UTF-16LE request for Sales vouchers after an AlterID, when posted, then the answer is UTF-16LE with a BOM and holds exactly those vouchers', async () => {
    emu = await startTallyEmulator({ invoices: 10, creditNotes: 3, customers: 5 });
    const after = emu.store.invoices()[4]!.alterId;
    const { res, bytes, text } = await post(
      emu.url,
      envelope({
        company: emu.companyName,
        type: 'Voucher',
        fetch: 'GUID, ALTERID, VOUCHERTYPENAME, LEDGERENTRIES.LIST',
        filters: [`$AlterID &gt; ${after} AND $VoucherTypeName = "Sales"`],
      }),
      'utf16le',
    );
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-16');
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const wanted = emu.store.invoices().filter((v) => v.alterId > after);
    expect(count(text, 'VOUCHER')).toBe(wanted.length);
    for (const v of wanted) expect(text).toContain(`<GUID>${v.guid}</GUID>`);
    expect(text).toContain('<LEDGERENTRIES.LIST>');
    expect(text).not.toContain('<ALLINVENTORYENTRIES.LIST>');
  });

  it("given the company's collection, when asked for its AlterIDs, then it answers $AltVchId and $AltMstId; an alteration moves the voucher one only", async () => {
    emu = await startTallyEmulator({ invoices: 6, creditNotes: 2, customers: 4 });
    const ask = async () =>
      (
        await post(
          emu!.url,
          envelope({ company: emu!.companyName, type: 'Company', fetch: 'NAME, ALTVCHID, ALTMSTID' }),
        )
      ).text;
    const before = emu.store.alterIds();
    expect(await ask()).toContain(`<ALTVCHID>${before.vouchers}</ALTVCHID><ALTMSTID>${before.masters}</ALTMSTID>`);
    emu.store.editVoucher(emu.store.invoices()[0]!.guid, 'altered');
    const after = emu.store.alterIds();
    expect(after.masters).toBe(before.masters);
    expect(after.vouchers).toBeGreaterThan(before.vouchers);
    expect(await ask()).toContain(`<ALTVCHID>${after.vouchers}</ALTVCHID>`);
  });

  it("given another company name, or the company closed, when a request comes, then the answer is STATUS 0 with Tally's LINEERROR", async () => {
    emu = await startTallyEmulator({ invoices: 2, creditNotes: 0, customers: 2 });
    const other = await post(emu.url, envelope({ company: 'Nobody Ltd', type: 'Company', fetch: 'NAME' }));
    expect(other.text).toContain('<STATUS>0</STATUS>');
    expect(other.text).toContain(
      '<LINEERROR>Could not set &#39;SVCurrentCompany&#39; to &#39;Nobody Ltd&#39;</LINEERROR>',
    );
    emu.setLoaded(false);
    const closed = await post(emu.url, envelope({ company: emu.companyName, type: 'Company', fetch: 'NAME' }));
    expect(closed.text).toContain('<STATUS>0</STATUS>');
  });

  it('given three requests sent at once, when served, then no two are in flight together', async () => {
    emu = await startTallyEmulator({ invoices: 30, creditNotes: 5, customers: 6 });
    const xml = envelope({ company: emu.companyName, type: 'Voucher', fetch: '*' });
    const answers = await Promise.all([post(emu.url, xml), post(emu.url, xml), post(emu.url, xml)]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(emu.stats()).toMatchObject({ requests: 3, maxInFlight: 1 });
  });

  it('given the same seed twice, then the books are the same; a voucher balances: its ledger and inventory amounts add up to zero', async () => {
    emu = await startTallyEmulator({ seed: 7, invoices: 25, creditNotes: 6, customers: 8 });
    const again = await startTallyEmulator({ seed: 7, invoices: 25, creditNotes: 6, customers: 8 });
    try {
      expect(again.store.vouchers()).toEqual(emu.store.vouchers());
    } finally {
      await again.close();
    }
    for (const v of emu.store.vouchers()) {
      const sign = v.voucherTypeName === 'Sales' ? 1 : -1;
      const sum =
        v.ledgers.reduce((s, l) => s + l.amountPaise, 0) + v.inventory.reduce((s, i) => s + sign * i.amountPaise, 0);
      expect(sum, v.voucherNumber).toBe(0);
    }
    const vouchers = emu.store.vouchers();
    expect(vouchers.some((v) => v.isCancelled)).toBe(true);
    expect(vouchers.some((v) => v.irn)).toBe(true);
    expect(vouchers.some((v) => v.ledgers.some((l) => l.ledgerName.startsWith('Output IGST')))).toBe(true);
    expect(vouchers.some((v) => v.ledgers.some((l) => l.ledgerName.startsWith('Output CGST')))).toBe(true);
    expect(vouchers.some((v) => v.ledgers.some((l) => l.ledgerName.startsWith('Output Cess')))).toBe(true);
    expect(vouchers.some((v) => v.ledgers.some((l) => l.ledgerName === 'Round Off'))).toBe(true);
    expect(vouchers.some((v) => v.placeOfSupply === '')).toBe(true);
    expect(
      emu.store.creditNotes().every((c) => c.ledgers[0]!.bills?.[0]?.billType === 'Agst Ref' || c.isCancelled),
    ).toBe(true);
  });

  it('given /__admin/changes, when an invoice is voided and a customer without vouchers deleted, then the voucher stays cancelled with a new AlterID and the ledger is gone', async () => {
    emu = await startTallyEmulator({ invoices: 4, creditNotes: 1, customers: 6 });
    const target = emu.store.invoices().find((v) => !v.isCancelled)!;
    const res = await fetch(`${emu.url}/__admin/changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'invoices', op: 'void', ids: [target.guid] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { changes: unknown[] }).changes).toHaveLength(1);
    expect(emu.store.invoices().find((v) => v.guid === target.guid)).toMatchObject({ isCancelled: true });
    const del = await fetch(`${emu.url}/__admin/changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'customers', op: 'delete', count: 1 }),
    });
    const { changes } = (await del.json()) as { changes: Array<{ id: string }> };
    expect(emu.store.customers().map((c) => c.guid)).not.toContain(changes[0]!.id);
  });
});
