import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmulatorClock, type ClockSettings } from '../kit/emulator-clock.js';
import {
  ChangeRefused,
  ChangesBody,
  changesMadeBy,
  createCount,
  targetIds,
  type ChangeMade,
} from '../kit/webhook-admin-routes.js';
import { formatZodIssues } from '../kit/zod-issues.js';
import {
  ANSWER_HEAD,
  ANSWER_TAIL,
  companyXml,
  errorXml,
  fetchOf,
  ledgerXml,
  voucherTypeXml,
  voucherXml,
} from './render-xml.js';
import { compileFormula, type Lookup } from './tdl-formula.js';
import { parseCollectionRequest, parseXml, RequestError } from './tdl-request.js';
import { StoreError, TallyStore, type GenerateOptions } from './tally-store.js';
import type { TallyLedger, TallyVoucher } from './tally-model.js';

/**
 * A TallyPrime server as an integration sees it (https://help.tallysolutions.com/integration-with-tallyprime/):
 * `POST /` with an XML envelope, in UTF-8 or UTF-16 (little-endian, with or without a BOM, or named by
 * the Content-Type's charset), answered in the request's encoding; one request at a time (a second
 * waits for the first, as TallyPrime serves them); a company that is not loaded, or another company's
 * name, is refused with a LINEERROR; answers are written object by object (a client must stream them).
 *
 *   POST /                      the XML interface: Export of a Collection with inline TDL
 *   GET  /__admin/stats         requests served, most in flight at once, bytes written, record counts, AlterIDs
 *   POST /__admin/company       {loaded: boolean}: loads or closes the company
 *   POST /__admin/changes       {entity, op, count | ids}: as every sandbox (sandbox/README.md)
 *   POST /__admin/reset         {seed?, invoices?, creditNotes?, customers?}: new books, counters zeroed
 */
export interface TallyEmulatorOptions {
  port?: number;
  host?: string;
  seed?: number | string;
  invoices?: number;
  creditNotes?: number;
  customers?: number;
  clock?: ClockSettings;
}

export interface TallyEmulator {
  url: string;
  port: number;
  store: TallyStore;
  clock: EmulatorClock;
  companyName: string;
  /** Loads or closes the company (a closed one answers every request with an error). */
  setLoaded(loaded: boolean): void;
  stats(): TallyStats;
  close(): Promise<void>;
}

export interface TallyStats {
  requests: number;
  maxInFlight: number;
  bytesWritten: number;
  invoices: number;
  creditNotes: number;
  customers: number;
  altVchId: number;
  altMstId: number;
}

export const TALLY_SANDBOX_DEFAULTS = { seed: 42, invoices: 40, creditNotes: 10, customers: 14 } as const;

type Encoding = 'utf8' | 'utf16le';

/** The request's encoding: a UTF-16LE BOM or charset says UTF-16; otherwise UTF-8 (ASCII is a subset). */
function encodingOf(req: IncomingMessage, body: Buffer): Encoding {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf16le';
  const charset = /charset=([\w-]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset === 'utf-16' || charset === 'utf-16le') return 'utf16le';
  return 'utf8';
}

function decode(body: Buffer, encoding: Encoding): string {
  const text = body.toString(encoding);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function voucherLookup(v: TallyVoucher): Lookup {
  return (m) =>
    ({
      alterid: v.alterId,
      masterid: v.masterId,
      date: Number(v.date),
      vouchertypename: v.voucherTypeName,
      guid: v.guid,
      iscancelled: v.isCancelled ? 'Yes' : 'No',
      partyledgername: v.partyLedgerName,
      vouchernumber: v.voucherNumber,
    })[m];
}

function ledgerLookup(l: TallyLedger): Lookup {
  return (m) => ({ alterid: l.alterId, masterid: l.masterId, guid: l.guid, name: l.name, parent: l.parent })[m];
}

export async function startTallyEmulator(options: TallyEmulatorOptions = {}): Promise<TallyEmulator> {
  const clock = new EmulatorClock(options.clock ?? {});
  const generation = (o: Partial<GenerateOptions>): GenerateOptions => ({
    seed: o.seed ?? options.seed ?? TALLY_SANDBOX_DEFAULTS.seed,
    invoices: o.invoices ?? options.invoices ?? TALLY_SANDBOX_DEFAULTS.invoices,
    creditNotes: o.creditNotes ?? options.creditNotes ?? TALLY_SANDBOX_DEFAULTS.creditNotes,
    customers: o.customers ?? options.customers ?? TALLY_SANDBOX_DEFAULTS.customers,
  });
  let store = new TallyStore(generation({}), () => clock.now());
  let loaded = true;
  let queue: Promise<void> = Promise.resolve();
  const counters = { requests: 0, inFlight: 0, maxInFlight: 0, bytesWritten: 0 };

  async function* answer(text: string): AsyncGenerator<string> {
    const request = parseCollectionRequest(parseXml(text));
    if (!loaded || (request.company !== undefined && request.company !== store.company.name)) {
      yield errorXml(`Could not set 'SVCurrentCompany' to '${request.company ?? ''}'`);
      return;
    }
    const filters = request.filters.map(compileFormula);
    const keep = (lookup: Lookup) => filters.every((f) => f(lookup));
    const fetch = fetchOf(request.fetch);
    const type = request.type.toLowerCase();
    yield ANSWER_HEAD;
    if (type === 'company') {
      if (keep((m) => (m === 'name' ? store.company.name : undefined)))
        yield companyXml(store.company, store.alterIds(), fetch);
    } else if (type === 'voucher') {
      // A voucher collection covers the current period (SVFROMDATE..SVTODATE; default the company's year).
      const from = Number(request.fromDate ?? store.company.booksFrom);
      const to = Number(request.toDate ?? String(Number(store.company.booksFrom.slice(0, 4)) + 1) + '0331');
      const computes = request.computes.map(({ name, formula }) => {
        // External method access, the one form the emulator knows: a field of the party's ledger.
        const m = /^\$(\w+):Ledger:\$PartyLedgerName$/i.exec(formula);
        if (!m || m[1]!.toUpperCase() !== 'GUID')
          throw new RequestError(`COMPUTE formula '${formula}' is not supported here`);
        return name;
      });
      const guidOfLedger = new Map(store.ledgers().map((l) => [l.name, l.guid]));
      for (const v of [...store.vouchers()].sort((a, b) => a.alterId - b.alterId)) {
        const date = Number(v.date);
        if (date >= from && date <= to && keep(voucherLookup(v)))
          yield voucherXml(
            v,
            fetch,
            computes.map((name) => [name, guidOfLedger.get(v.partyLedgerName) ?? ''] as [string, string]),
          );
      }
    } else if (type === 'vouchertype') {
      for (const t of store.voucherTypes())
        if (keep((m) => ({ name: t.name, parent: t.parent })[m])) yield voucherTypeXml(t, fetch);
    } else if (type === 'ledger') {
      for (const l of [...store.ledgers()].sort((a, b) => a.alterId - b.alterId))
        if (keep(ledgerLookup(l))) yield ledgerXml(l, fetch);
    } else {
      throw new RequestError(`Collection TYPE '${request.type}' is not supported here`);
    }
    yield ANSWER_TAIL;
  }

  async function serveXml(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const encoding = encodingOf(req, body);
    const charset = encoding === 'utf16le' ? 'utf-16' : 'utf-8';
    res.writeHead(200, { 'content-type': `text/xml; charset=${charset}` });
    const write = (chunk: string) => {
      const bytes = Buffer.from(chunk, encoding);
      counters.bytesWritten += bytes.length;
      return res.write(bytes) ? Promise.resolve() : new Promise<void>((r) => res.once('drain', () => r()));
    };
    if (encoding === 'utf16le') await write('\ufeff');
    try {
      // Objects are rendered one at a time and written as they come (never the whole answer in memory).
      let pending = '';
      for await (const piece of answer(decode(body, encoding))) {
        pending += piece;
        if (pending.length >= 16_384) {
          await write(pending);
          pending = '';
        }
      }
      if (pending) await write(pending);
    } catch (e) {
      if (!(e instanceof RequestError)) throw e;
      await write(errorXml(e.message));
    }
    res.end();
  }

  function admin(method: string, path: string, body: unknown): { status: number; body: unknown } {
    if (method === 'GET' && path === '/__admin/stats') return { status: 200, body: stats() };
    if (method === 'POST' && path === '/__admin/company') {
      const l = (body as { loaded?: unknown } | undefined)?.loaded;
      if (typeof l !== 'boolean') return { status: 400, body: { error: 'expected {loaded: boolean}' } };
      loaded = l;
      return { status: 200, body: { loaded } };
    }
    if (method === 'POST' && path === '/__admin/reset') {
      store = new TallyStore(generation((body ?? {}) as Partial<GenerateOptions>), () => clock.now());
      loaded = true;
      Object.assign(counters, { requests: 0, maxInFlight: 0, bytesWritten: 0 });
      return { status: 200, body: stats() };
    }
    if (method === 'POST' && path === '/__admin/changes') {
      const parsed = ChangesBody.safeParse(body ?? {});
      if (!parsed.success) return { status: 400, body: { error: formatZodIssues(parsed.error).join('; ') } };
      try {
        return { status: 200, body: { changes: applyChanges(store, parsed.data) } };
      } catch (e) {
        if (e instanceof ChangeRefused || e instanceof StoreError)
          return { status: e.status, body: { error: e.message } };
        throw e;
      }
    }
    return { status: 404, body: { error: `no admin route ${method} ${path}` } };
  }

  function stats(): TallyStats {
    const ids = store.alterIds();
    return {
      requests: counters.requests,
      maxInFlight: counters.maxInFlight,
      bytesWritten: counters.bytesWritten,
      invoices: store.invoices().length,
      creditNotes: store.creditNotes().length,
      customers: store.customers().length,
      altVchId: ids.vouchers,
      altMstId: ids.masters,
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0]!;
      if (path.startsWith('/__admin/')) {
        let parsed: unknown;
        try {
          parsed = body.length ? JSON.parse(body.toString('utf8')) : undefined;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"body is not JSON"}');
          return;
        }
        const out = admin(req.method ?? 'GET', path, parsed);
        res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
        return;
      }
      if (req.method !== 'POST' || path !== '/') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('TallyPrime serves POST / only');
        return;
      }
      // One request at a time: each waits for the one before to be answered in full.
      const turn = queue.then(async () => {
        counters.requests++;
        counters.inFlight++;
        counters.maxInFlight = Math.max(counters.maxInFlight, counters.inFlight);
        try {
          await serveXml(req, res, body);
        } finally {
          counters.inFlight--;
        }
      });
      queue = turn.catch(() => {});
      turn.catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String((e as Error).message));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    get store() {
      return store;
    },
    clock,
    companyName: store.company.name,
    setLoaded: (l) => void (loaded = l),
    stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** `/__admin/changes` in Tally's terms: an edit alters a voucher (or a ledger's e-mail), a void cancels. */
function applyChanges(store: TallyStore, body: ChangesBody): ChangeMade[] {
  return changesMadeBy(store.changes, body, () => {
    if (body.entity === 'customers') {
      if (body.op === 'void') throw new ChangeRefused('a ledger cannot be cancelled');
      if (body.op === 'create') {
        for (let i = 0; i < createCount(body); i++) store.createCustomer();
        return;
      }
      const used = new Set(store.vouchers().map((v) => v.partyLedgerName));
      const ids = targetIds(
        store.customers(),
        (l) => l.guid,
        body,
        (l) => body.op !== 'delete' || !used.has(l.name),
        body.op === 'delete' ? 'customers without vouchers' : 'customers',
      );
      for (const id of ids)
        if (body.op === 'delete') store.deleteLedger(id);
        else store.editLedger(id, `accounts+${id.slice(0, 8)}@example.in`);
      return;
    }
    const docs = body.entity === 'invoices' ? store.invoices() : store.creditNotes();
    if (body.op === 'create') {
      for (let i = 0; i < createCount(body); i++)
        if (body.entity === 'invoices') store.createInvoice();
        else store.createCreditNote();
      return;
    }
    const ids = targetIds(
      docs,
      (v) => v.guid,
      body,
      (v) => body.op === 'delete' || !v.isCancelled,
      body.entity,
    );
    for (const id of ids)
      if (body.op === 'delete') store.deleteVoucher(id);
      else if (body.op === 'void') store.cancelVoucher(id);
      else store.editVoucher(id, `Altered through the sandbox`, { bumpQuantity: true });
  });
}
