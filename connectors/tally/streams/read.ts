import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
import type { PagerFor, RawPage, RawRow } from '../../../src/connector/define-stream.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { DataContractError } from '../../../src/errors/index.js';
import { tallyClientOf } from '../client.js';
import type { Settings } from '../settings.js';
import type { TallyObject } from './answer.js';
import { ALL_DATES, tdlString } from './envelope.js';
import { baseAlterId, marksOf, marksText, type State, versionOf } from './state.js';
import { agentSource } from './agent-source.js';

/**
 * How every Tally stream reads (vouchers and ledgers alike), in AlterID order:
 *
 * 1. The company's `$AltVchId` (vouchers) or `$AltMstId` (masters): the highest AlterID given so far
 *    (https://help.tallysolutions.com/integration-with-tallyprime/; tally-database-loader's incremental
 *    sync, https://github.com/dhananjay1405/tally-database-loader). When it is not above where the read
 *    starts (state.ts: the mark for the cursor, or a resumed read), nothing changed: an idle poll is this
 *    one request.
 * 2. Otherwise the objects with `$AlterID` in (from, from + rangeSize], (…, + 2 × rangeSize], … up to that
 *    AlterID, one request per range: an answer holds at most `rangeSize` objects, however large the
 *    company (Tally builds an answer whole before sending it: tally-database-loader issue 15 reports
 *    9 GB of RAM and 12 minutes for one 400 MB answer). Each range is a page, sorted by AlterID, so the
 *    pipeline may checkpoint after any page (`isSorted`): the state says which ranges are done.
 *
 * Tally keeps no modification time: a record's version is its AlterID (state.ts, versionOf), and
 * `ctx.until` cannot hold back a change (a change after the company's AlterID was read waits for the next
 * read; one before it is read now). Deletes leave no trace in Tally: `listIds` lists every GUID for
 * reconciliation's id diff.
 */
export type TallyRecord = TallyObject;

export interface TallyStreamSpec {
  /** Which company counter tracks the stream's objects. */
  counter: 'vouchers' | 'masters';
  type: 'Voucher' | 'Ledger';
  tag: 'VOUCHER' | 'LEDGER';
  fetch: readonly string[];
  /** The formula choosing the stream's objects (a voucher type, a ledger group). */
  select: string;
  computes?: ReadonlyArray<readonly [string, string]>;
}

/** GUIDs per read by id: one request each, its filter an OR of GUIDs. */
const IDS_PER_REQUEST = 50;

/** The company's $AltVchId and $AltMstId, read in one request. */
export async function companyAlterIds(ctx: ReadContext<Settings>): Promise<{ vouchers: number; masters: number }> {
  const [company] = await tallyClientOf(ctx.http).exportCollection(
    {
      id: 'ErpSyncCompany',
      type: 'Company',
      company: ctx.settings.company,
      fetch: ['NAME', 'ALTVCHID', 'ALTMSTID'],
      filters: [`$Name = ${tdlString(ctx.settings.company)}`],
    },
    ['COMPANY'],
    ctx.signal,
  );
  const count = (v: unknown, field: string) => {
    if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
    throw new DataContractError(`tally company ${field}: expected a whole number, got ${JSON.stringify(v ?? null)}`, {
      source: 'tally',
      operation: 'Export Company collection',
    });
  };
  if (!company)
    throw new DataContractError(`tally: TallyPrime listed no company named ${JSON.stringify(ctx.settings.company)}`, {
      source: 'tally',
      operation: 'Export Company collection',
    });
  return { vouchers: count(company.ALTVCHID, 'ALTVCHID'), masters: count(company.ALTMSTID, 'ALTMSTID') };
}

const ymd = (date: string) => date.replaceAll('-', '');

export function rowOf(raw: TallyObject): RawRow<TallyRecord> {
  const alterId = Number(raw.ALTERID);
  if (!Number.isSafeInteger(alterId) || alterId < 0)
    throw new DataContractError(`tally: an object without a readable ALTERID (GUID ${String(raw.GUID ?? '?')})`, {
      source: 'tally',
      operation: 'read',
    });
  return { raw, version: versionOf(alterId) };
}

async function exportRows(
  ctx: ReadContext<Settings>,
  spec: TallyStreamSpec,
  filters: string[],
  window?: { from: string; to: string },
): Promise<RawRow<TallyRecord>[]> {
  const objects = await tallyClientOf(ctx.http).exportCollection(
    {
      id: `ErpSync${spec.type}s`,
      type: spec.type,
      company: ctx.settings.company,
      fetch: spec.fetch,
      filters: [...filters, spec.select],
      ...(spec.computes ? { computes: spec.computes } : {}),
      ...(spec.type === 'Voucher'
        ? { fromDate: window ? ymd(window.from) : ALL_DATES.from, toDate: window ? ymd(window.to) : ALL_DATES.to }
        : {}),
    },
    [spec.tag],
    ctx.signal,
  );
  return objects.map(rowOf);
}

/**
 * Where a read's AlterIDs come from: TallyPrime itself (direct mode), or the batches the agent pushed
 * (agent mode, agent-source.ts). The same marks, ranges and pages either way.
 */
export interface AlterIdSource {
  top(): Promise<number>;
  rows(lo: number, hi: number, window?: { from: string; to: string }): Promise<RawRow<TallyRecord>[]>;
}

function directSource(ctx: ReadContext<Settings>, spec: TallyStreamSpec): AlterIdSource {
  return {
    top: async () => (await companyAlterIds(ctx))[spec.counter],
    rows: (lo, hi, window) => exportRows(ctx, spec, [`$AlterID > ${lo} AND $AlterID <= ${hi}`], window),
  };
}

/** The pager of one Tally stream (src/connector/define-stream.ts). */
export function pager(spec: TallyStreamSpec): PagerFor<TallyRecord, State, Settings> {
  return (stream) => ({
    isSorted: true,
    read: (ctx, state) => {
      const source = ctx.settings.mode === 'agent' ? agentSource(ctx, stream.name, rowOf) : directSource(ctx, spec);
      return read(ctx, source, spec, state, stream.supportsWindow);
    },
    readByIds: (ctx, ids) =>
      ctx.settings.mode === 'agent' ? agentSource(ctx, stream.name, rowOf).byIds(ids) : readByIds(ctx, spec, ids),
    listIds: (ctx) => (ctx.settings.mode === 'agent' ? agentSource(ctx, stream.name, rowOf).ids() : listIds(ctx, spec)),
  });
}

/** The objects of one stream with AlterIDs in (lo, hi], as the agent reads them from TallyPrime. */
export async function readAlterIdRange(
  ctx: ReadContext<Settings>,
  spec: TallyStreamSpec,
  lo: number,
  hi: number,
): Promise<TallyObject[]> {
  return (await exportRows(ctx, spec, [`$AlterID > ${lo} AND $AlterID <= ${hi}`])).map((r) => r.raw);
}

async function* read(
  ctx: ReadContext<Settings>,
  source: AlterIdSource,
  spec: TallyStreamSpec,
  state: State,
  windowed: boolean,
): AsyncGenerator<RawPage<TallyRecord, State>> {
  const cursorMs = cursorMsOf(state.cursor, { source: 'tally', operation: `read ${spec.type.toLowerCase()}s` });
  const top = await source.top();
  // Taken after the answer arrived: every change from now on gets an AlterID above `top`.
  const atMs = Date.now();
  let marks = state.company === ctx.settings.company ? marksOf(state) : [];
  if (marks.some((m) => m.alterId > top)) {
    // AlterIDs went down: the company was rewritten or restored from a backup. Start over.
    ctx.logger.warn(
      { top, company: ctx.settings.company },
      'tally AlterIDs are lower than last seen; reading everything',
    );
    marks = [];
  }
  const base = baseAlterId(marks, cursorMs);
  const [resumeBase, resumeDone] = (state.resume ?? '').split(':').map(Number);
  const sameRead = state.resume !== undefined && state.resumeAt === (state.cursor ?? '');
  let from = sameRead && resumeBase === base && resumeDone! > base ? resumeDone! : base;
  if (from > top) from = base;
  const last = marks.at(-1);
  const nextMarks = marksText(last && last.alterId === top ? marks : [...marks, { atMs, alterId: top }]);
  const stateAt = (done: number): State => ({
    cursor: state.cursor,
    marks: nextMarks,
    company: ctx.settings.company,
    resume: `${base}:${done}`,
    resumeAt: state.cursor ?? '',
  });
  const window = windowed ? ctx.window : undefined;
  if (from >= top) {
    yield { rows: [], state: stateAt(top) };
    return;
  }
  for (let lo = from; lo < top; lo += ctx.settings.rangeSize) {
    const hi = Math.min(lo + ctx.settings.rangeSize, top);
    yield { rows: await source.rows(lo, hi, window), state: stateAt(hi) };
  }
}

/** By GUID, whatever the type or group (the stream's selection marks another type not for billing). */
async function* readByIds(
  ctx: ReadContext<Settings>,
  spec: TallyStreamSpec,
  ids: readonly string[],
): AsyncGenerator<RawRow<TallyRecord>[]> {
  const unselected = { ...spec, select: '$AlterID > 0' };
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const chunk = ids.slice(i, i + IDS_PER_REQUEST).filter((id) => !id.includes('"'));
    if (chunk.length === 0) continue;
    yield await exportRows(ctx, unselected, [chunk.map((id) => `$GUID = ${tdlString(id)}`).join(' OR ')]);
  }
}

/** Every GUID the company holds now for the stream, in AlterID ranges (ten ranges' worth a request). */
async function* listIds(ctx: ReadContext<Settings>, spec: TallyStreamSpec): AsyncGenerator<string[]> {
  const top = (await companyAlterIds(ctx))[spec.counter];
  const step = ctx.settings.rangeSize * 10;
  const guids = { ...spec, fetch: ['GUID', 'ALTERID'], computes: [] };
  for (let lo = 0; lo < top; lo += step) {
    const rows = await exportRows(ctx, guids, [`$AlterID > ${lo} AND $AlterID <= ${Math.min(lo + step, top)}`]);
    yield rows.map((r) => String(r.raw.GUID));
  }
}

/** Tally's status of a voucher: "cancelled", "optional" (not posted to the books) or "posted". */
export function voucherStatusOf(raw: { ISCANCELLED?: unknown; ISOPTIONAL?: unknown }): string {
  const yes = (v: unknown) => typeof v === 'string' && v.trim().toLowerCase() === 'yes';
  if (yes(raw.ISCANCELLED)) return 'cancelled';
  if (yes(raw.ISOPTIONAL)) return 'optional';
  return 'posted';
}
