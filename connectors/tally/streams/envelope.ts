/**
 * The export request TallyPrime's XML interface takes: a Collection with inline TDL naming the object
 * type, the fields to FETCH and the FILTER formulae (https://help.tallysolutions.com/integration-with-tallyprime/,
 * https://help.tallysolutions.com/case-study-1/; the same shape tally-database-loader sends,
 * https://github.com/dhananjay1405/tally-database-loader). SVCURRENTCOMPANY picks the company (it must be
 * loaded); SVFROMDATE/SVTODATE set the period a voucher collection covers (default: the company's
 * current period), so every voucher read names the widest one unless a backfill window narrows it.
 */
export interface CollectionSpec {
  /** The collection's name (also the request's ID). */
  id: string;
  type: 'Voucher' | 'Ledger' | 'Company' | 'VoucherType';
  company: string;
  fetch: readonly string[];
  /** Formulae every object must satisfy (Tally ANDs a collection's filters). */
  filters?: readonly string[];
  /** Methods computed per object: `[name, formula]`. */
  computes?: ReadonlyArray<readonly [string, string]>;
  /** YYYYMMDD. */
  fromDate?: string;
  toDate?: string;
}

/** The widest period: Tally keeps dates from 1 April 1900 (a voucher collection is limited to the period asked). */
export const ALL_DATES = { from: '19000401', to: '20991231' } as const;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A TDL string literal: Tally has no escape inside quotes, so a quote in a value is refused. */
export function tdlString(value: string): string {
  if (value.includes('"')) throw new TypeError(`a TDL string cannot hold a double quote: ${JSON.stringify(value)}`);
  return `"${value}"`;
}

export function collectionRequest(spec: CollectionSpec): string {
  const filters = spec.filters ?? [];
  const names = filters.map((_, i) => `${spec.id}F${i}`);
  const statics =
    `<SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT><SVCURRENTCOMPANY>${escapeXml(spec.company)}</SVCURRENTCOMPANY>` +
    (spec.fromDate ? `<SVFROMDATE>${spec.fromDate}</SVFROMDATE>` : '') +
    (spec.toDate ? `<SVTODATE>${spec.toDate}</SVTODATE>` : '');
  const collection =
    `<COLLECTION NAME="${spec.id}" ISMODIFY="No"><TYPE>${spec.type}</TYPE>` +
    `<FETCH>${spec.fetch.join(', ')}</FETCH>` +
    (spec.computes ?? []).map(([n, f]) => `<COMPUTE>${n} : ${escapeXml(f)}</COMPUTE>`).join('') +
    (names.length ? `<FILTER>${names.join(',')}</FILTER>` : '') +
    '</COLLECTION>';
  const formulae = filters
    .map((f, i) => `<SYSTEM TYPE="Formulae" NAME="${names[i]}">${escapeXml(f)}</SYSTEM>`)
    .join('');
  return (
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE>' +
    `<ID>${spec.id}</ID></HEADER><BODY><DESC><STATICVARIABLES>${statics}</STATICVARIABLES>` +
    `<TDL><TDLMESSAGE>${collection}${formulae}</TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>`
  );
}
