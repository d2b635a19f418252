import { SaxesParser } from 'saxes';

/**
 * A request envelope as the emulator reads it (requests are small: parsed whole). What TallyPrime's XML
 * interface takes for an export (https://help.tallysolutions.com/integration-with-tallyprime/):
 * HEADER/TALLYREQUEST "Export", TYPE "Collection", ID the collection's name; STATICVARIABLES
 * (SVCURRENTCOMPANY, SVFROMDATE, SVTODATE); the inline TDL's COLLECTION (TYPE, FETCH, FILTER) and the
 * SYSTEM Formulae its filters name.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export interface CollectionRequest {
  id: string;
  company?: string;
  fromDate?: string;
  toDate?: string;
  /** Object type: Voucher, Ledger, Company. */
  type: string;
  fetch: string[];
  /** Formulae, by the names the collection's FILTER lists, in that order. */
  filters: string[];
  /** COMPUTE methods: a name and its formula (`PartyLedgerGUID : $GUID:Ledger:$PartyLedgerName`). */
  computes: Array<{ name: string; formula: string }>;
}

export class RequestError extends Error {}

export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser();
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const el: XmlElement = {
      name: tag.name.toUpperCase(),
      attributes: Object.fromEntries(Object.entries(tag.attributes).map(([k, v]) => [k.toUpperCase(), String(v)])),
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(el);
    stack.push(el);
    root ??= el;
  });
  parser.on('text', (t) => {
    const el = stack.at(-1);
    if (el) el.text += t;
  });
  parser.on('cdata', (t) => {
    const el = stack.at(-1);
    if (el) el.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  try {
    parser.write(text).close();
  } catch (e) {
    throw new RequestError(`the request is not well-formed XML: ${(e as Error).message}`);
  }
  if (!root) throw new RequestError('the request is empty');
  return root;
}

const child = (el: XmlElement | undefined, name: string) => el?.children.find((c) => c.name === name);
const find = (el: XmlElement, name: string): XmlElement | undefined => {
  for (const c of el.children) {
    if (c.name === name) return c;
    const deep = find(c, name);
    if (deep) return deep;
  }
  return undefined;
};

export function parseCollectionRequest(root: XmlElement): CollectionRequest {
  if (root.name !== 'ENVELOPE') throw new RequestError('expected an ENVELOPE');
  const header = child(root, 'HEADER');
  const request = child(header, 'TALLYREQUEST')?.text.trim();
  if (request !== 'Export')
    throw new RequestError(`TALLYREQUEST ${JSON.stringify(request ?? '')} is not supported here`);
  const type = child(header, 'TYPE')?.text.trim();
  if (type !== 'Collection') throw new RequestError(`export TYPE ${JSON.stringify(type ?? '')} is not supported here`);
  const id = child(header, 'ID')?.text.trim() ?? '';
  const statics = find(root, 'STATICVARIABLES');
  const company = child(statics, 'SVCURRENTCOMPANY')?.text.trim();
  const fromDate = child(statics, 'SVFROMDATE')?.text.trim();
  const toDate = child(statics, 'SVTODATE')?.text.trim();
  const tdl = find(root, 'TDLMESSAGE');
  const collection = tdl?.children.find((c) => c.name === 'COLLECTION' && c.attributes.NAME === id);
  if (!collection) throw new RequestError(`Could not find Collection '${id}'`);
  const list = (name: string) =>
    collection.children
      .filter((c) => c.name === name)
      .flatMap((c) => c.text.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
  const formulae = new Map(
    (tdl?.children ?? [])
      .filter((c) => c.name === 'SYSTEM' && c.attributes.TYPE === 'Formulae')
      .map((c) => [c.attributes.NAME ?? '', c.text.trim()] as const),
  );
  const filters = list('FILTER').map((name) => {
    const f = formulae.get(name);
    if (f === undefined) throw new RequestError(`Could not find Formula '${name}'`);
    return f;
  });
  const computes = collection.children
    .filter((c) => c.name === 'COMPUTE')
    .map((c) => {
      const at = c.text.indexOf(':');
      if (at < 0) throw new RequestError(`COMPUTE ${JSON.stringify(c.text.trim())} has no formula`);
      return { name: c.text.slice(0, at).trim(), formula: c.text.slice(at + 1).trim() };
    });
  return {
    id,
    computes,
    type: child(collection, 'TYPE')?.text.trim() ?? '',
    fetch: list('FETCH'),
    filters,
    ...(company ? { company } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
  };
}
