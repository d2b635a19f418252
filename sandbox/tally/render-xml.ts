import type { TallyCompany, TallyInventoryEntry, TallyLedger, TallyLedgerEntry, TallyVoucher } from './tally-model.js';

/**
 * Objects as TallyPrime exports them in a collection answer (XML, `$$SysName:XML`): upper-case tags,
 * lists as `NAME.LIST`, amounts as signed decimals ("-59000.00"), rates with thousands separators and the
 * unit ("50,000.00/Nos"), quantities with a leading space and the unit (" 2 Nos"), dates as YYYYMMDD,
 * booleans Yes/No. Only the fields the request FETCHes are written (the GUID, ALTERID and the lists a
 * field names come with their object). Field names: tally-database-loader's export configuration
 * (https://github.com/dhananjay1405/tally-database-loader) and Tally's integration help
 * (https://help.tallysolutions.com/integration-with-tallyprime/).
 */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Paise as Tally's amount: "-59000.00". */
export function amountText(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Indian digit grouping, as Tally prints a rate: 1,00,000.00. */
function grouped(paise: number): string {
  const whole = String(Math.floor(paise / 100));
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest ? `${rest},` : ''}${last3}.${String(paise % 100).padStart(2, '0')}`;
}

const tag = (name: string, value: string | number | undefined) =>
  value === undefined || value === '' ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;
const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

export type Fetch = (field: string) => boolean;

export function fetchOf(fields: readonly string[]): Fetch {
  const wanted = new Set(fields.map((f) => f.toUpperCase()));
  const all = wanted.has('*');
  return (field) => all || wanted.has(field) || field === 'GUID' || field === 'ALTERID';
}

function inventoryXml(i: TallyInventoryEntry, sign: 1 | -1): string {
  const duties =
    i.gstRate > 0 || i.cessRate > 0
      ? [
          ['Integrated Tax', i.gstRate],
          ['Central Tax', i.gstRate / 2],
          ['State Tax', i.gstRate / 2],
          ['Cess', i.cessRate],
        ]
          .map(
            ([head, rate]) =>
              `<RATEDETAILS.LIST>${tag('GSTRATEDUTYHEAD', head)}${tag('GSTRATE', ` ${rate}`)}</RATEDETAILS.LIST>`,
          )
          .join('')
      : '';
  return (
    '<ALLINVENTORYENTRIES.LIST>' +
    tag('STOCKITEMNAME', i.stockItemName) +
    tag('GSTHSNNAME', i.hsn) +
    tag('RATE', `${grouped(i.ratePaise)}/${i.unit}`) +
    tag('AMOUNT', amountText(sign * i.amountPaise)) +
    tag('ACTUALQTY', ` ${i.quantity} ${i.unit}`) +
    tag('BILLEDQTY', ` ${i.quantity} ${i.unit}`) +
    duties +
    `<ACCOUNTINGALLOCATIONS.LIST>${tag('LEDGERNAME', i.salesLedger)}${tag('ISDEEMEDPOSITIVE', yesNo(sign < 0))}${tag('AMOUNT', amountText(sign * i.amountPaise))}</ACCOUNTINGALLOCATIONS.LIST>` +
    '</ALLINVENTORYENTRIES.LIST>'
  );
}

function ledgerEntryXml(e: TallyLedgerEntry): string {
  const bills = (e.bills ?? [])
    .map(
      (b) =>
        `<BILLALLOCATIONS.LIST>${tag('NAME', b.name)}${tag('BILLTYPE', b.billType)}${tag('AMOUNT', amountText(b.amountPaise))}</BILLALLOCATIONS.LIST>`,
    )
    .join('');
  return `<LEDGERENTRIES.LIST>${tag('LEDGERNAME', e.ledgerName)}${tag('ISDEEMEDPOSITIVE', yesNo(e.amountPaise < 0))}${tag('AMOUNT', amountText(e.amountPaise))}${bills}</LEDGERENTRIES.LIST>`;
}

export function voucherXml(v: TallyVoucher, fetch: Fetch, computed: ReadonlyArray<[string, string]> = []): string {
  const sign = v.voucherTypeName === 'Sales' ? 1 : -1;
  const fields: Array<[string, string | number | undefined]> = [
    ['DATE', v.date],
    ['GUID', v.guid],
    ['ALTERID', v.alterId],
    ['MASTERID', v.masterId],
    ['VOUCHERTYPENAME', v.voucherTypeName],
    ['VOUCHERNUMBER', v.voucherNumber],
    ['REFERENCE', v.reference],
    ['NARRATION', v.narration],
    ['PARTYLEDGERNAME', v.partyLedgerName],
    ['PARTYGSTIN', v.partyGstin],
    ['PLACEOFSUPPLY', v.placeOfSupply],
    ['ISINVOICE', 'Yes'],
    ['ISCANCELLED', yesNo(v.isCancelled)],
    ['ISOPTIONAL', 'No'],
    ['IRN', v.irn],
    ['IRNACKNO', v.irnAckNo],
    ['IRNACKDATE', v.irnAckDate],
  ];
  const body =
    fields
      .filter(([f]) => fetch(f))
      .map(([f, value]) => tag(f, value))
      .join('') +
    computed.map(([name, value]) => tag(name.toUpperCase(), value)).join('') +
    (fetch('ALLINVENTORYENTRIES.LIST') ? v.inventory.map((i) => inventoryXml(i, sign)).join('') : '') +
    (fetch('LEDGERENTRIES.LIST') ? v.ledgers.map(ledgerEntryXml).join('') : '');
  return `<VOUCHER REMOTEID="${escapeXml(v.guid)}" VCHTYPE="${escapeXml(v.voucherTypeName)}" ACTION="Create">${body}</VOUCHER>`;
}

export function ledgerXml(l: TallyLedger, fetch: Fetch): string {
  const fields: Array<[string, string | number | undefined]> = [
    ['GUID', l.guid],
    ['ALTERID', l.alterId],
    ['MASTERID', l.masterId],
    ['NAME', l.name],
    ['PARENT', l.parent],
    ['MAILINGNAME', l.mailingName],
    ['LEDSTATENAME', l.stateName],
    ['COUNTRYNAME', l.countryName],
    ['PINCODE', l.pincode],
    ['EMAIL', l.email],
    ['LEDGERMOBILE', l.mobile],
    ['INCOMETAXNUMBER', l.incomeTaxNumber],
    ['PARTYGSTIN', l.gstin],
    ['GSTREGISTRATIONTYPE', l.gstRegistrationType],
    ['GSTDUTYHEAD', l.gstDutyHead],
    ['TAXTYPE', l.taxType],
    ['RATEOFTAXCALCULATION', l.rateOfTax === undefined ? undefined : ` ${l.rateOfTax}`],
  ];
  const address =
    fetch('ADDRESS.LIST') && l.address?.length
      ? `<ADDRESS.LIST TYPE="String">${l.address.map((a) => tag('ADDRESS', a)).join('')}</ADDRESS.LIST>`
      : '';
  const body =
    fields
      .filter(([f]) => fetch(f))
      .map(([f, value]) => tag(f, value))
      .join('') + address;
  return `<LEDGER NAME="${escapeXml(l.name)}" RESERVEDNAME="">${body}</LEDGER>`;
}

export function companyXml(c: TallyCompany, alterIds: { vouchers: number; masters: number }, fetch: Fetch): string {
  const fields: Array<[string, string | number]> = [
    ['NAME', c.name],
    ['ALTVCHID', alterIds.vouchers],
    ['ALTMSTID', alterIds.masters],
    ['STATENAME', c.stateName],
    ['GSTIN', c.gstin],
    ['BOOKSFROM', c.booksFrom],
  ];
  const body = fields
    .filter(([f]) => fetch(f))
    .map(([f, value]) => tag(f, value))
    .join('');
  return `<COMPANY NAME="${escapeXml(c.name)}">${body}</COMPANY>`;
}

/** A voucher type master: its name and the predefined type it belongs to (PARENT). */
export function voucherTypeXml(t: { name: string; parent: string }, fetch: Fetch): string {
  const body = (
    [
      ['NAME', t.name],
      ['PARENT', t.parent],
    ] as const
  )
    .filter(([f]) => fetch(f))
    .map(([f, value]) => tag(f, value))
    .join('');
  return `<VOUCHERTYPE NAME="${escapeXml(t.name)}">${body}</VOUCHERTYPE>`;
}

export const ANSWER_HEAD =
  '<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DESC></DESC><DATA><COLLECTION>';
export const ANSWER_TAIL = '</COLLECTION></DATA></BODY></ENVELOPE>';

/** Tally's answer to a request it cannot carry out: STATUS 0 and the reason as LINEERROR. */
export function errorXml(message: string): string {
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>0</STATUS></HEADER><BODY><DATA><LINEERROR>${escapeXml(message)}</LINEERROR></DATA></BODY></ENVELOPE>`;
}
