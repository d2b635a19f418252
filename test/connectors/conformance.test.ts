import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectorFor } from '../../connectors/registry.js';
import type { LineItem } from '../../src/billing/schemas/invoice.js';
import { type EntityName, LIFECYCLES, type SourceRecord, type Stream } from '../../src/connector/types.js';
import { DataContractError } from '../../src/errors/index.js';
import { type MapFailure, QUARANTINE_REASON_CODES } from '../../src/mapping/quarantine-reason.js';
import { COVERAGE_SOURCES } from './support/coverage-sources.js';
import {
  filledBy,
  modelFields,
  parseCoverageDoc,
  readCoverageDoc,
  type Vendor,
  VENDORS,
} from './support/field-coverage.js';
import {
  type DocumentEntity,
  DOCUMENTS,
  ENTITIES,
  readAll,
  type Running,
  type Size,
  SUBJECTS,
  type Subject,
  T0,
} from './support/conformance-subjects.js';

/**
 * One contract, every connector (connectors/README.md, "The shape" and "The contract"): the same files
 * and exports, and the same read and mapping behaviour against each vendor's emulator over loopback —
 * the real client, a real token store, no mocks. Each check runs once per connector (and per stream
 * where it concerns a stream); the emulators' clocks are frozen and moved by the tests, never waited on.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const sorted = (ids: Iterable<string>) => [...ids].sort();
const SMALL: Size = { invoices: 12, creditNotes: 8, customers: 8 };
const PAGED: Size = { invoices: 30, creditNotes: 20, customers: 20 };
const PAGE_SIZE = 5;

/** Starts the subject's emulator for one test and always closes it. */
async function withEmulator<T>(
  subject: Subject,
  size: Size,
  test: (run: Awaited<ReturnType<Subject['start']>>) => Promise<T>,
): Promise<T> {
  const run = await subject.start(size);
  try {
    return await test(run);
  } finally {
    await run.close();
  }
}

const streamOf = (subject: Subject, entity: EntityName): Stream => subject.connector.streams[entity];

/** Rows for `it.each`: names first (they fill the titles' %s), the subject last. */
const perConnector = SUBJECTS.map((subject) => [subject.system, subject] as const);
const perStream = SUBJECTS.flatMap((subject) => ENTITIES.map((entity) => [subject.system, entity, subject] as const));
const perDocument = SUBJECTS.flatMap((subject) =>
  DOCUMENTS.map((entity) => [subject.system, entity, subject] as const),
);

/** The instant the emulator stamps for a change at `ms`: whole seconds except Xero, which keeps ms. */
const stampOf = (subject: Subject, ms: number) => (subject.system === 'xero' ? ms : Math.floor(ms / 1000) * 1000);

describe('1. Shape: the same files and exports in every connector', () => {
  const FILES = [
    'README.md',
    'auth.ts',
    'authorize.ts',
    'client.ts',
    'connector.ts',
    'error-table.ts',
    'index.ts',
    'map/credit-note.ts',
    'map/customer.ts',
    'map/fx.ts',
    'map/invoice.ts',
    'map/lines.ts',
    'map/party.ts',
    'map/tax.ts',
    'map/totals.ts',
    'quota-profile.ts',
    'rate-limit.ts',
    'schemas.ts',
    'settings.ts',
    'streams/credit-notes.ts',
    'streams/customers.ts',
    'streams/invoices.ts',
    'streams/lookups.ts',
    'streams/read.ts',
    'streams/state.ts',
    'webhooks.ts',
  ];

  /** What each file of the shape exports in every connector (connectors/README.md, "The shape"). */
  const EXPORTS: Record<string, readonly string[]> = {
    'auth.ts': ['refreshFn', 'createAuth'],
    'authorize.ts': ['authorization'],
    'client.ts': ['createClient'],
    'connector.ts': ['connector'],
    'error-table.ts': ['errorTable', 'tokenErrorTable'],
    'rate-limit.ts': ['readQuota'],
    'quota-profile.ts': ['quotaProfile'],
    'webhooks.ts': ['webhooks'],
    'settings.ts': ['Settings'],
    'streams/read.ts': ['pager'],
    'streams/state.ts': ['State', 'initialState'],
    'streams/lookups.ts': ['fetchLookups', 'readLookups'],
    'streams/invoices.ts': ['invoicesStream'],
    'streams/credit-notes.ts': ['creditNotesStream'],
    'streams/customers.ts': ['customersStream'],
    'map/invoice.ts': ['toInvoice'],
    'map/credit-note.ts': ['toCreditNote'],
    'map/customer.ts': ['toCustomer'],
    'map/fx.ts': ['currencyOf', 'exchangeRateOf'],
    'map/totals.ts': ['amountsOf'],
  };

  const folderOf = (subject: Subject) => fileURLToPath(new URL(`../../connectors/${subject.folder}/`, import.meta.url));
  /** A file of the shape, by its path under the connector's folder (the same module the static imports load). */
  const load = (subject: Subject, file: string) =>
    import(/* @vite-ignore */ `${folderOf(subject)}${file}`) as Promise<Record<string, unknown>>;

  async function filesOf(dir: string, prefix = ''): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((e) =>
        e.isDirectory() ? filesOf(`${dir}${e.name}/`, `${prefix}${e.name}/`) : Promise.resolve([`${prefix}${e.name}`]),
      ),
    );
    return nested.flat();
  }

  it.each(perConnector)(
    'given the %s connector, when its folder is listed, then every file of the one shape is there, and each other file sits in streams/ or map/ and is named in its README under "Files of this connector only"',
    async (_system, subject) => {
      const files = await filesOf(folderOf(subject));
      expect(FILES.filter((f) => !files.includes(f))).toEqual([]);
      const extra = files.filter((f) => !FILES.includes(f));
      const readme = await readFile(`${folderOf(subject)}README.md`, 'utf8');
      const section = readme.split(/^### Files of this connector only$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
      for (const file of extra) {
        expect(file, `${subject.folder}/${file}`).toMatch(/^(streams|map)\/[a-z0-9-]+\.ts$/);
        expect(section, `${subject.folder}/README.md names ${file}`).toContain(`\`${file}\``);
      }
    },
  );

  it.each(perConnector)(
    "given the %s connector's index.ts, when imported, then its one export is the default connector: connector.ts's, with its system id, registered under that id, with the invoices, credit-notes and customers streams each named for its key",
    async (_system, subject) => {
      const index = await load(subject, 'index.ts');
      const { connector } = await load(subject, 'connector.ts');
      expect(Object.keys(index)).toEqual(['default']);
      expect(index.default).toBe(connector);
      expect(subject.connector).toBe(connector);
      expect(subject.connector.id).toBe(subject.system);
      expect(connectorFor(subject.system)).toBe(connector);
      expect(sorted(Object.keys(subject.connector.streams))).toEqual(sorted(ENTITIES));
      for (const entity of ENTITIES) expect(streamOf(subject, entity).name).toBe(entity);
    },
  );

  it.each(perConnector)(
    "given every file of the %s connector, when imported, then each exports what the shape names, and the connector is built from them (settings, createClient, each stream, each stream's mapper and state)",
    async (_system, subject) => {
      const modules = Object.fromEntries(
        await Promise.all(Object.keys(EXPORTS).map(async (f) => [f, await load(subject, f)] as const)),
      );
      for (const [file, names] of Object.entries(EXPORTS)) {
        for (const name of names) {
          if (subject.without?.includes(file))
            expect(Object.keys(modules[file]!), `${subject.folder}/${file}`).toContain(name);
          else expect(modules[file]![name], `${subject.folder}/${file} exports ${name}`).toBeDefined();
        }
      }
      const c = subject.connector;
      expect(c.settings).toBe(modules['settings.ts']!.Settings);
      expect(c.createClient).toBe(modules['client.ts']!.createClient);
      expect(c.quotaProfile).toBe(modules['quota-profile.ts']!.quotaProfile);
      const wiring = [
        ['invoices', 'streams/invoices.ts', 'invoicesStream', 'map/invoice.ts', 'toInvoice'],
        ['credit-notes', 'streams/credit-notes.ts', 'creditNotesStream', 'map/credit-note.ts', 'toCreditNote'],
        ['customers', 'streams/customers.ts', 'customersStream', 'map/customer.ts', 'toCustomer'],
      ] as const;
      for (const [entity, streamFile, streamName, mapFile, mapName] of wiring) {
        const stream = streamOf(subject, entity);
        expect(stream, `${entity} is ${streamFile}'s ${streamName}`).toBe(modules[streamFile]![streamName]);
        expect(stream.map, `${entity} maps with ${mapFile}'s ${mapName}`).toBe(modules[mapFile]![mapName]);
        expect(stream.state).toBe(modules['streams/state.ts']!.State);
        expect(stream.initialState).toBe(modules['streams/state.ts']!.initialState);
      }
    },
  );

  it.each(perConnector)(
    "given the %s connector's settings, then `timeoutMs` is the one timeout setting (1000–120000 ms, default 30000) and the client it creates uses it",
    (_system, subject) => {
      const parse = (extra: Record<string, unknown>) =>
        subject.connector.settings.safeParse({ ...subject.minimalSettings, ...extra });
      expect(parse({}).data).toMatchObject({ timeoutMs: 30_000 });
      for (const ok of [1_000, 120_000]) expect(parse({ timeoutMs: ok }).success, `timeoutMs ${ok}`).toBe(true);
      for (const bad of [999, 120_001, 1_500.5])
        expect(parse({ timeoutMs: bad }).success, `timeoutMs ${bad}`).toBe(false);
      const settings = parse({ timeoutMs: 4_321 }).data;
      const client = subject.connector.createClient({ connectionId: 'timeouts', settings, tokens: {} as never });
      expect(client.options.timeoutMs).toBe(4_321);
    },
  );

  it.each(perStream)(
    'given the %s %s stream, when its initial states are built, then the state is {cursor} (null from the beginning, the same instant from a date), its schema accepts them, and its keys and flags are declared',
    (_system, entity, subject) => {
      const stream = streamOf(subject, entity);
      const fromStart = stream.initialState();
      expect(fromStart).toEqual({ cursor: null });
      expect(stream.state.parse(fromStart)).toEqual(fromStart);
      const from = '2025-06-30T18:29:59.123Z';
      const fromDate = stream.initialState(from);
      expect(Date.parse(fromDate.cursor!)).toBe(Date.parse(from));
      expect(stream.state.parse(fromDate)).toEqual(fromDate);
      expect(stream.primaryKey).toMatch(/\S/);
      expect(stream.cursorField).toMatch(/\S/);
      expect(typeof stream.isSorted).toBe('boolean');
      // Documents have a document date to window by; customers have none and read everything.
      expect(stream.supportsWindow).toBe(entity !== 'customers');
    },
  );
});

describe('2. Cursor edges: a full read misses nothing, and a read from a cursor includes the cursor instant', () => {
  it.each(perStream)(
    'given a fresh %s connection, when %s are read in full from the initial state, then every record the emulator holds is returned once, and only records the vendor keeps as deleted come back deleted',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const held = run.held(entity);
        expect(held.live.length).toBeGreaterThan(0);
        const read = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        const ids = read.live.map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(sorted(ids)).toEqual(sorted(held.live));
        for (const r of read.deleted) expect(held.deleted, `${r.id} is deleted in the vendor`).toContain(r.id);
      });
    },
  );

  it.each(perStream)(
    'given the checkpoint a whole %s read of %s leaves (cursor = its until), when one record is edited stamped exactly at that instant, then the next read from that checkpoint returns it at that version',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const until = T0;
        await readAll(stream, run.ctx({ until }), stream.initialState());
        const checkpoint = { ...stream.initialState(), cursor: iso(until) };
        const target = run.editable(entity)[0]!;
        run.edit(entity, [target], until);

        run.setClock(T0 + 60_000);
        const next = await readAll(stream, run.ctx({ until: T0 + 60_000 }), checkpoint);
        expect(next.live.filter((r) => r.id === target).map((r) => r.version)).toEqual([
          run.versionOf?.(entity, target) ?? iso(until),
        ]);
      });
    },
  );

  it.each(perStream)(
    "given the state the last page of a %s %s read carried, when one record is edited stamped exactly at that state's cursor, then a read resuming from that state returns it",
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const first = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        const last = first.pages.at(-1)!.state;
        // A null cursor resumes from the beginning: any instant is at or after it.
        const at = last.cursor === null ? T0 : Date.parse(last.cursor);
        // Not the record the cursor came from: one whose older version the read already had moves onto the cursor.
        const target = run
          .editable(entity)
          .find((id) => !first.live.some((r) => r.id === id && r.version === last.cursor))!;
        run.edit(entity, [target], at);

        run.setClock(T0 + 60_000);
        const next = await readAll(stream, run.ctx({ until: T0 + 60_000 }), last);
        expect(next.live.filter((r) => r.id === target).map((r) => r.version)).toEqual([
          run.versionOf?.(entity, target) ?? iso(stampOf(subject, at)),
        ]);
      });
    },
  );
});

describe('2b. An unreadable checkpoint: a permanent error, never a retried one', () => {
  it.each(perStream)(
    'given a %s %s checkpoint whose cursor is not an instant, when the stream reads from it (incrementally, and in a backfill window), then it fails with a DataContractError (not retryable) naming the connector and the cursor',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const state = { ...stream.initialState(), cursor: 'yesterday-ish' };
        for (const ctx of [
          run.ctx({ until: T0 }),
          { ...run.ctx({ until: T0 }), window: { from: '2025-01-01', to: '2025-01-31' } },
        ]) {
          const error = await readAll(stream, ctx, state).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(DataContractError);
          expect((error as DataContractError).retryable).toBe(false);
          expect((error as Error).message).toContain(subject.system);
          expect((error as Error).message).toContain('"yesterday-ish" is not an instant');
        }
      });
    },
  );
});

describe('3. Same-second edits: a cursor inside a second misses no edit of that second', () => {
  it.each(perStream)(
    'given a %s read of %s whose cursor falls inside a second, when two records are edited later in that same second, then the next read from that cursor returns both',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const until = T0 + 500;
        run.setClock(until);
        await readAll(stream, run.ctx({ until }), stream.initialState());
        const checkpoint = { ...stream.initialState(), cursor: iso(until) };
        const [a, b] = run.editable(entity);
        run.setClock(T0 + 700);
        run.edit(entity, [a!], T0 + 700);
        run.setClock(T0 + 900);
        run.edit(entity, [b!], T0 + 900);

        run.setClock(T0 + 60_000);
        const next = await readAll(stream, run.ctx({ until: T0 + 60_000 }), checkpoint);
        const versions = new Map(next.live.map((r) => [r.id, r.version]));
        expect(versions.get(a!)).toBe(run.versionOf?.(entity, a!) ?? iso(stampOf(subject, T0 + 700)));
        expect(versions.get(b!)).toBe(run.versionOf?.(entity, b!) ?? iso(stampOf(subject, T0 + 900)));
      });
    },
  );
});

describe('4. Paging: more records than a page, each returned exactly once', () => {
  it.each(perStream)(
    `given more %s %s than fit in one page (page size ${PAGE_SIZE}), when read in full, then every record is returned exactly once across the pages, and resuming from any page's state misses nothing after it`,
    async (_system, entity, subject) => {
      await withEmulator(subject, PAGED, async (run) => {
        const stream = streamOf(subject, entity);
        const held = run.held(entity);
        expect(held.live.length).toBeGreaterThan(3 * PAGE_SIZE);
        const ctx = run.ctx({ until: T0, pageSize: PAGE_SIZE });
        const read = await readAll(stream, ctx, stream.initialState());
        const livePages = read.pages.map((p) => p.records.filter((r) => !r.deleted));
        expect(livePages.filter((p) => p.length > 0).length).toBeGreaterThanOrEqual(3);
        expect(Math.max(...livePages.map((p) => p.length))).toBeLessThanOrEqual(PAGE_SIZE);
        const ids = read.live.map((r) => r.id);
        expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
        expect(sorted(ids)).toEqual(sorted(held.live));

        if (stream.isSorted) {
          // The pipeline may checkpoint after any page: every record after it is at or after its cursor.
          read.pages.forEach((page, i) => {
            if (page.state.cursor === null) return;
            for (const later of livePages.slice(i + 1).flat()) expect(later.version >= page.state.cursor).toBe(true);
          });
        } else {
          // The pipeline checkpoints only after the whole read: no page moves the state.
          for (const page of read.pages) expect(page.state).toEqual(stream.initialState());
        }
        const middle = Math.floor(read.pages.length / 2);
        const before = new Set(livePages.slice(0, middle + 1).flatMap((p) => p.map((r) => r.id)));
        const rest = await readAll(stream, ctx, read.pages[middle]!.state);
        const resumed = new Set([...before, ...rest.live.map((r) => r.id)]);
        expect(held.live.filter((id) => !resumed.has(id))).toEqual([]);
      });
    },
  );
});

describe('5. Voids and deletes: a void is a status; a delete is signalled as the vendor can', () => {
  const perVoid = SUBJECTS.flatMap((subject) =>
    (Object.keys(subject.voidStatus) as EntityName[]).map(
      (entity) => [subject.system, entity, subject.voidStatus[entity]!, subject] as const,
    ),
  );

  it.each(perVoid)(
    'given a %s document of the %s stream voided in the vendor, when the next incremental read runs, then it is returned with status "%s" and lifecycle void, never deleted, and it maps',
    async (_system, entity, status, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const id = run.voids[entity]!.prepare();
        run.voids[entity]!.apply(id, T0 + 1_000);
        run.setClock(T0 + 60_000);
        const next = await readAll(stream, run.ctx({ until: T0 + 60_000 }), stream.initialState(iso(T0)));
        const got = next.records.filter((r) => r.id === id);
        expect(got.map((r) => ({ status: r.status, deleted: r.deleted, lifecycle: r.lifecycle }))).toEqual([
          { status, deleted: undefined, lifecycle: 'void' },
        ]);
        const mapped = stream.map(got[0]!, await run.mapContext(stream));
        expect(mapped.ok ? 'mapped' : `${mapped.reason}: ${mapped.message}`).toBe('mapped');
      });
    },
  );

  it.each(perStream)(
    'given a full %s read of %s, then every record not deleted carries a lifecycle (draft, issued or void; customers always issued), draft exactly when the lifecycle is draft, and void exactly for the status the vendor voids with',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const read = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        expect(read.live.length).toBeGreaterThan(0);
        for (const r of read.live) {
          expect(LIFECYCLES, `${r.id} (${r.status})`).toContain(r.lifecycle);
          expect(r.draft === true, `${r.id} (${r.status})`).toBe(r.lifecycle === 'draft');
          expect(r.lifecycle === 'void', `${r.id} (${r.status})`).toBe(
            r.status !== undefined && r.status === subject.voidStatus[entity],
          );
          if (entity === 'customers') expect(r.lifecycle).toBe('issued');
        }
      });
    },
  );

  it.each(
    perStream.map(([system, entity, subject]) => [system, entity, subject.deletes[entity].kind, subject] as const),
  )(
    'given a %s %s record deleted in the vendor, when the next incremental read runs, then the delete is signalled as its README says (%s)',
    async (_system, entity, _signal, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const signal = subject.deletes[entity];
        const removal = run.removals[entity];
        const id = removal.prepare();
        removal.apply(id, T0 + 1_000);
        run.setClock(T0 + 60_000);
        const ctx = run.ctx({ until: T0 + 60_000 });
        const next = await readAll(stream, ctx, stream.initialState(iso(T0)));
        const got = next.records.filter((r) => r.id === id);
        if (signal.kind === 'deleted-record') {
          // The vendor keeps or reports the delete: the read returns it as a delete, with the vendor's status.
          expect(got.map((r) => ({ status: r.status, deleted: r.deleted }))).toEqual([
            { status: signal.status, deleted: true },
          ]);
        } else if (signal.kind === 'status') {
          // The vendor's "delete" is a status: a live record, never `deleted`.
          expect(got.map((r) => ({ status: r.status, deleted: r.deleted }))).toEqual([
            { status: signal.status, deleted: undefined },
          ]);
        } else {
          // A hard delete without a feed: the read cannot return it, and listIds (reconciliation's id diff) stops listing it.
          expect(got).toEqual([]);
          expect(next.deleted).toEqual([]);
          expect(stream.listIds).toBeDefined();
          const listed: string[] = [];
          for await (const ids of stream.listIds!(ctx)) listed.push(...ids);
          expect(listed).not.toContain(id);
          expect(sorted(listed)).toEqual(sorted(run.held(entity).live));
        }
      });
    },
  );
});

/** How a subject's raw document states its total: a field, or how to read and move it (RawFields.total). */
function totalField(subject: Subject, entity: DocumentEntity) {
  const total = subject.raw.total[entity];
  if (typeof total !== 'string') return total;
  return {
    of: (raw: Record<string, unknown>) => Number(raw[total]),
    add: (raw: Record<string, unknown>, amount: number) => void (raw[total] = Number(raw[total]) + amount),
  };
}

describe('6. Quarantine reasons: records that cannot be trusted map to a reason, never to a body', () => {
  const isFailure = (r: { ok: boolean }): r is MapFailure => !r.ok;

  /** A full read's live records with the map context the pipeline would use. */
  async function readForMapping(run: Running, stream: Stream) {
    const read = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
    return { records: read.live, mapCtx: await run.mapContext(stream) };
  }

  it.each(perDocument)(
    'given a %s %s document read from the emulator whose total no longer adds up, when the stream maps it, then it is a MapFailure with a reason from QUARANTINE_REASON_CODES (AMOUNTS_INCONSISTENT) and a message naming the field',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const { records, mapCtx } = await readForMapping(run, stream);
        const total = totalField(subject, entity);
        const sound = records.find(
          (r) =>
            subject.raw.currencyOf(r.raw) === 'INR' &&
            r.status !== subject.voidStatus[entity] &&
            total.of(r.raw) > 0 &&
            stream.map(r, mapCtx).ok,
        );
        expect(sound, `a base-currency ${entity} that maps`).toBeDefined();
        const raw = structuredClone(sound!.raw);
        total.add(raw, 1);
        const broken: SourceRecord<Record<string, unknown>> = { ...sound!, raw };
        const result = stream.map(broken, mapCtx);
        expect(isFailure(result)).toBe(true);
        const failure = result as MapFailure;
        expect(QUARANTINE_REASON_CODES).toContain(failure.reason);
        expect(failure.reason).toBe('AMOUNTS_INCONSISTENT');
        expect(failure.field).toMatch(/\S/);
        expect(failure.message).toContain(failure.field);
      });
    },
  );

  it.each(perDocument)(
    'given a %s %s document that maps, when the map context carries no lookups, or malformed ones, then it is a MapFailure MISSING_FIELD on `lookups` saying so, never a body built on empty defaults',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const { records, mapCtx } = await readForMapping(run, stream);
        const sound = records.find((r) => stream.map(r, mapCtx).ok);
        expect(sound, `a ${entity} that maps`).toBeDefined();
        const malformed = { organization: 'none', taxes: 'none', taxRates: 'none', taxCodes: 'none' };
        for (const [lookups, says] of [
          [undefined, /lookups .* are missing from the map context/],
          [malformed, /lookups are malformed: \S/],
        ] as const) {
          const result = stream.map(sound!, { ...mapCtx, lookups: lookups as never });
          expect(result).toMatchObject({ ok: false, reason: 'MISSING_FIELD', field: 'lookups' });
          expect((result as MapFailure).message).toMatch(says);
        }
      });
    },
  );

  // A connector that maps base-currency documents only (its README says why) has no foreign invoice to read.
  const withFx = perConnector.filter(([, subject]) => subject.raw.fx !== undefined);
  it.each(withFx)(
    'given a foreign-currency %s invoice read from the emulator, when its exchange rate is exactly 1, then FX_SUSPECT; when it has no rate to read or derive, then FX_UNDERIVABLE; never a body at 1:1',
    async (_system, subject) => {
      await withEmulator(subject, PAGED, async (run) => {
        const stream = streamOf(subject, 'invoices');
        const { records, mapCtx } = await readForMapping(run, stream);
        const foreign = records.find((r) => {
          const currency = subject.raw.currencyOf(r.raw);
          return currency !== undefined && currency !== 'INR' && stream.map(r, mapCtx).ok;
        });
        expect(foreign, 'a foreign-currency invoice that maps').toBeDefined();
        const variant = (change: (raw: Record<string, unknown>) => void): SourceRecord<Record<string, unknown>> => {
          const raw = structuredClone(foreign!.raw);
          change(raw);
          return { ...foreign!, raw };
        };
        const atOne = stream.map(
          variant((raw) => {
            raw[subject.raw.fx!.rate] = 1;
          }),
          mapCtx,
        );
        const missing = stream.map(
          variant((raw) => {
            for (const f of subject.raw.fx!.rateSources) delete raw[f];
          }),
          mapCtx,
        );
        expect(atOne).toMatchObject({ ok: false, reason: 'FX_SUSPECT' });
        expect(missing).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE' });
        for (const failure of [atOne, missing] as MapFailure[]) expect(failure.message).toMatch(/\S/);
      });
    },
  );
});

describe('7. Reads by id: a repair reads exactly the records it names, at most one call per id', () => {
  /** An id of the vendor's shape that no record has. */
  const unknownId = (subject: Subject) =>
    subject.system === 'xero' ? '0badc0de-0000-4000-8000-000000000000' : '987654321098';

  /** The context's client, counting the calls made through it. */
  function counted(ctx: ReturnType<Running['ctx']>): { ctx: ReturnType<Running['ctx']>; calls: () => number } {
    let n = 0;
    const http = Object.create(ctx.http) as typeof ctx.http;
    http.request = ((...args: Parameters<typeof ctx.http.request>) => {
      n++;
      return ctx.http.request(...args);
    }) as typeof ctx.http.request;
    return { ctx: { ...ctx, http }, calls: () => n };
  }

  it.each(perStream)(
    'given a %s %s stream and three ids it holds plus one it never had, when readByIds runs, then it returns those three as a full read does (version, status, a mapping), leaves the unknown one out, and makes no more calls than ids',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        expect(stream.readByIds, `${subject.system} ${entity} implements readByIds`).toBeDefined();
        const full = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        const wanted = full.live.slice(0, 3);
        expect(wanted).toHaveLength(3);
        const mapCtx = await run.mapContext(stream);
        // After the full read, as a repair runs at once after a change: no settle delay bounds a read by id.
        const { ctx, calls } = counted(run.ctx({ until: T0 - 86_400_000 }));
        const got: SourceRecord[] = [];
        for await (const page of stream.readByIds!(ctx, [...wanted.map((r) => r.id), unknownId(subject)]))
          got.push(...page);
        expect(sorted(got.map((r) => r.id))).toEqual(sorted(wanted.map((r) => r.id)));
        for (const r of wanted) {
          const byId = got.find((g) => g.id === r.id)!;
          expect({ version: byId.version, status: byId.status, deleted: byId.deleted, draft: byId.draft }).toEqual({
            version: r.version,
            status: r.status,
            deleted: r.deleted,
            draft: r.draft,
          });
          expect(stream.map(byId, mapCtx)).toEqual(stream.map(r, mapCtx));
        }
        expect(calls()).toBeLessThanOrEqual(4);
      });
    },
  );

  it.each(
    perStream.map(([system, entity, subject]) => [system, entity, subject.deletes[entity].kind, subject] as const),
  )(
    'given a %s %s record deleted in the vendor (%s), when readByIds asks for it, then it is absent, or returned as a delete',
    async (_system, entity, _kind, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const removal = run.removals[entity];
        const id = removal.prepare();
        removal.apply(id, T0 + 1_000);
        run.setClock(T0 + 60_000);
        const got: SourceRecord[] = [];
        for await (const page of stream.readByIds!(run.ctx({ until: T0 }), [id])) got.push(...page);
        const signal = subject.deletes[entity];
        // A vendor that keeps deletes returns it as one (Xero DELETED); a query that leaves deletes to a feed (QBO CDC) leaves it out.
        if (signal.kind === 'deleted-record') expect(got.filter((r) => r.deleted !== true)).toEqual([]);
        else if (signal.kind === 'status')
          expect(got.map((r) => ({ id: r.id, status: r.status }))).toEqual([{ id, status: signal.status }]);
        else expect(got).toEqual([]);
      });
    },
  );
});

describe('8. Text lines: a line that carries no money is text, carried; a line with only an amount is quantity 1 at it', () => {
  const TEXT = 'Conformance text line: goods returned, see ticket 4471';

  /** The body a mapping must have produced, and its line items. */
  function bodyOf(result: ReturnType<Stream['map']>): { lines: LineItem[]; rest: Record<string, unknown> } {
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    const body = (
      result.value.kind === 'invoice'
        ? result.value.invoice
        : result.value.kind === 'credit-note'
          ? result.value.creditNote
          : undefined
    ) as (Record<string, unknown> & { lineItems?: LineItem[] }) | undefined;
    if (!body) throw new Error(`not a document: ${result.value.kind}`);
    const { lineItems, ...rest } = body;
    return { lines: lineItems ?? [], rest };
  }

  /** Base-currency, not voided, mapped documents read from the emulator. */
  async function mappedDocuments(run: Running, subject: Subject, entity: DocumentEntity) {
    const stream = streamOf(subject, entity);
    const read = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
    const mapCtx = await run.mapContext(stream);
    const records = read.live.filter(
      (r) =>
        subject.raw.currencyOf(r.raw) === 'INR' &&
        r.status !== subject.voidStatus[entity] &&
        !r.draft &&
        stream.map(r, mapCtx).ok,
    );
    expect(records.length, `base-currency ${entity} that map`).toBeGreaterThan(0);
    const variant = (r: SourceRecord<Record<string, unknown>>, change: (raw: Record<string, unknown>) => unknown) => {
      const raw = structuredClone(r.raw);
      change(raw);
      return stream.map({ ...r, raw }, mapCtx);
    };
    return { records, original: (r: SourceRecord<Record<string, unknown>>) => bodyOf(stream.map(r, mapCtx)), variant };
  }

  // A vendor whose documents have no row of text (its README, "Text lines") has none to add.
  const withTextLines = perDocument.filter(([, , subject]) => subject.raw.addTextLine !== undefined);
  it.each(withTextLines)(
    "given a %s %s document read from the emulator with a row of text added in the vendor's own shape, when mapped, then it syncs: the text is a zero line in its place and every other field and line is unchanged",
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const { records, original, variant } = await mappedDocuments(run, subject, entity);
        for (const r of records.slice(0, 3)) {
          const before = original(r);
          const after = bodyOf(variant(r, (raw) => subject.raw.addTextLine!(raw, TEXT)));
          expect(after.rest).toEqual(before.rest);
          expect(after.lines.slice(1)).toEqual(before.lines);
          expect(after.lines[0]).toMatchObject({
            lineItemDetails: { name: TEXT, taxRate: 0, pricePerItem: 0 },
            quantity: 0,
            subTotal: 0,
            total: 0,
          });
          expect(after.lines[0]).not.toHaveProperty('tax');
          expect(after.lines[0]).not.toHaveProperty('discount');
        }
      });
    },
  );

  it.each(perDocument)(
    'given a %s %s document read from the emulator whose first undiscounted line keeps only its amount (no quantity, no unit price), when mapped, then that line is quantity 1 at its amount and the document is unchanged otherwise',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const { records, original, variant } = await mappedDocuments(run, subject, entity);
        let checked = 0;
        for (const r of records) {
          let id: string | undefined;
          const result = variant(r, (raw) => (id = subject.raw.amountOnly(raw)));
          if (id === undefined) continue;
          const before = original(r);
          const after = bodyOf(result);
          expect(after.rest).toEqual(before.rest);
          const index = before.lines.findIndex((l) => l.lineItemDetails?.lineItemId === id);
          expect(index, `line ${id} in the body`).toBeGreaterThanOrEqual(0);
          const was = before.lines[index]!;
          const now = after.lines[index]!;
          expect(now.quantity).toBe(1);
          // Quantity × unit price was the line's amount (the vendor's price keeps up to 5 decimals).
          expect(
            Math.abs(now.lineItemDetails!.pricePerItem - was.quantity * was.lineItemDetails!.pricePerItem),
          ).toBeLessThanOrEqual(0.01);
          expect({
            ...now,
            quantity: was.quantity,
            lineItemDetails: { ...now.lineItemDetails, pricePerItem: was.lineItemDetails!.pricePerItem },
          }).toEqual(was);
          expect(after.lines.filter((_, i) => i !== index)).toEqual(before.lines.filter((_, i) => i !== index));
          if (++checked === 3) break;
        }
        expect(checked, `${entity} with an undiscounted line`).toBeGreaterThan(0);
      });
    },
  );
});

describe('9. One engine: every stream makes its records the same way (src/connector/define-stream.ts)', () => {
  /** What a SourceRecord says besides its raw payload. */
  const fieldsOf = (r: SourceRecord) => ({
    id: r.id,
    version: r.version,
    status: r.status,
    deleted: r.deleted,
    draft: r.draft,
    lifecycle: r.lifecycle,
    notForBilling: r.notForBilling,
  });

  /** The engine's record rules, on any record a stream yields. */
  function expectEngineRules(subject: Subject, entity: EntityName, records: readonly SourceRecord[]) {
    for (const r of records) {
      const what = `${r.id} (${r.status})`;
      if (r.deleted === true) {
        // A delete is only a delete: it is in no lifecycle, and it is never a void.
        expect({ lifecycle: r.lifecycle, draft: r.draft }, what).toEqual({ lifecycle: undefined, draft: undefined });
        if (subject.voidStatus[entity] !== undefined) expect(r.status, what).not.toBe(subject.voidStatus[entity]);
      } else {
        expect(LIFECYCLES, what).toContain(r.lifecycle);
        expect(r.draft === true, what).toBe(r.lifecycle === 'draft');
      }
      if (r.lifecycle === 'void') expect(r.deleted, what).toBeUndefined();
    }
  }

  it.each(perStream)(
    'given a %s %s stream, when records are voided and deleted in the vendor and read in full, incrementally and by id, then every record not deleted carries a lifecycle (draft exactly when draft), no delete carries one, and a void is never deleted, by whichever read',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const full = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        expectEngineRules(subject, entity, full.records);
        const voided = run.voids[entity]?.prepare();
        const removed = run.removals[entity].prepare();
        if (voided !== undefined) run.voids[entity]!.apply(voided, T0 + 1_000);
        if (removed !== voided) run.removals[entity].apply(removed, T0 + 2_000);
        run.setClock(T0 + 60_000);
        const ctx = run.ctx({ until: T0 + 60_000 });
        const next = await readAll(stream, ctx, stream.initialState(iso(T0)));
        expectEngineRules(subject, entity, next.records);
        const byId: SourceRecord[] = [];
        for await (const page of stream.readByIds!(ctx, [...new Set(next.records.map((r) => r.id))]))
          byId.push(...page);
        expectEngineRules(subject, entity, byId);
        if (voided !== undefined) {
          for (const records of [next.records, byId])
            expect(records.filter((r) => r.id === voided).map((r) => [r.lifecycle, r.deleted])).toEqual([
              ['void', undefined],
            ]);
        }
      });
    },
  );

  it.each(perStream)(
    'given a full %s %s read, when readByIds reads every record it returned, then each comes back as the read made it: the same id, version, status, delete, draft, lifecycle and notForBilling',
    async (_system, entity, subject) => {
      await withEmulator(subject, SMALL, async (run) => {
        const stream = streamOf(subject, entity);
        const full = await readAll(stream, run.ctx({ until: T0 }), stream.initialState());
        const got: SourceRecord[] = [];
        for await (const page of stream.readByIds!(
          run.ctx({ until: T0 }),
          full.live.map((r) => r.id),
        ))
          got.push(...page);
        const byIdOf = new Map(got.map((r) => [r.id, fieldsOf(r)]));
        expect(sorted(byIdOf.keys())).toEqual(sorted(full.live.map((r) => r.id)));
        for (const r of full.live) expect(byIdOf.get(r.id), r.id).toEqual(fieldsOf(r));
      });
    },
  );
});

describe('10. Field coverage: every billing input field is filled from the source, or docs/field-coverage.md says why not', () => {
  const doc = parseCoverageDoc(readCoverageDoc());
  const model = modelFields();
  /** Each vendor's fixtures, mapped once: the fields they fill ("Shape.field") and what they mapped. */
  const measured = new Map(
    VENDORS.map((vendor) => {
      const mapped = COVERAGE_SOURCES[vendor]();
      const filled = new Set<string>();
      for (const m of mapped) if (m.result.ok) for (const f of filledBy(m.result.value)) filled.add(f);
      return [vendor, { mapped, filled }] as const;
    }),
  );

  it('given docs/field-coverage.md, when its tables are read, then they have one row per field of every billing input object and nothing else', () => {
    const expected = [...model].flatMap(([shape, fields]) => fields.map((f) => `${shape}.${f}`)).sort();
    const declared = [...doc].flatMap(([shape, rows]) => [...rows.keys()].map((f) => `${shape}.${f}`)).sort();
    expect(
      expected.filter((f) => !declared.includes(f)),
      'billing fields with no row',
    ).toEqual([]);
    expect(
      declared.filter((f) => !expected.includes(f)),
      'rows for fields billing does not have',
    ).toEqual([]);
    for (const [shape, rows] of doc)
      for (const [field, row] of rows)
        for (const vendor of VENDORS) expect(row[vendor].text, `${shape}.${field}: ${vendor}'s cell`).not.toBe('');
  });

  it.each(VENDORS.map((v) => [v] as const))(
    'given the %s fixtures mapped by the connector, then they include at least one invoice, one credit note and one customer mapped to a body',
    (vendor) => {
      const kinds = new Set(measured.get(vendor)!.mapped.flatMap((m) => (m.result.ok ? [m.result.value.kind] : [])));
      expect([...kinds].sort()).toEqual(['credit-note', 'customer', 'invoice']);
    },
  );

  it.each(VENDORS.map((v) => [v] as const))(
    'given the %s fixtures mapped by the connector, when each billing field is compared with its row, then every field the row names a source for is filled, and none the row declares unfilled (none, not mapped, no fixture, default, pending) is',
    (vendor: Vendor) => {
      const { filled } = measured.get(vendor)!;
      const wrong: string[] = [];
      for (const [shape, fields] of model) {
        for (const field of fields) {
          const key = `${shape}.${field}`;
          const row = doc.get(shape)?.get(field);
          if (!row) continue; // reported by the test above
          const cell = row[vendor];
          if (!cell.absent && !filled.has(key))
            wrong.push(`${key}: the doc names "${cell.text}" but no ${vendor} fixture fills it`);
          if (cell.absent && filled.has(key))
            wrong.push(`${key}: the doc says "${cell.text}" but the ${vendor} mapper fills it from a fixture`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('given a coverage table, when it is parsed, then a cell starting with none, not mapped, no fixture, default or pending is a declaration of absence and any other cell names a source', () => {
    const table = [
      '### InvoiceInput',
      '',
      '| Field | Zoho Books | QuickBooks | Xero |',
      '|---|---|---|---|',
      '| referenceText | `reference_number` | **none**: no field | not mapped: why |',
      '| tags | pending: `tags[]` | no fixture: `X` | default: `Y` |',
    ].join('\n');
    const rows = parseCoverageDoc(table).get('InvoiceInput')!;
    expect(VENDORS.map((v) => rows.get('referenceText')![v].absent)).toEqual([false, true, true]);
    expect(VENDORS.map((v) => rows.get('tags')![v].absent)).toEqual([true, true, true]);
  });
});
