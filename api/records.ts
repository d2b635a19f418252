import { z } from 'zod';
import { explainRecord } from '../operations/explain-record.js';
import { searchRecords } from '../operations/search-records.js';
import { ApiError, notFound } from './errors.js';
import { API_BASE } from './openapi.js';
import { routesOn } from './route.js';
import { ConnectionId, EntityParam, ErpId, IsoInstant } from './schemas.js';

/** What this module's handlers use of the runtime, and nothing else. */
export type RecordRouteDeps = Parameters<typeof searchRecords>[0] & Parameters<typeof explainRecord>[0];

const defineRoute = routesOn<RecordRouteDeps>();

const FoundRecord = z
  .object({
    connection: z.string(),
    entity: z.string(),
    erpId: z.string(),
    number: z.string().nullable().describe('the document number as sent to billing'),
    billingId: z.string(),
    version: z.string().describe('the source version written'),
    writtenAt: IsoInstant,
    lineage: z.string().describe("the record's lineage: GET this path"),
  })
  .meta({ id: 'FoundRecord' });

const SearchText = z.string().trim().min(1).max(200);

export const recordRoutes = [
  defineRoute({
    method: 'get',
    path: '/records',
    summary:
      'Find records by ERP document number or by billing id (invoice, credit note or buyer id), with their lineage link',
    description:
      "A walk of the ledger of each connection's entities, bounded (about 500,000 entries a request): `complete: false` says the bound was reached. At most 50 matches.",
    role: 'viewer',
    query: z.object({
      connection: ConnectionId.optional(),
      number: SearchText.optional().describe('the ERP document number, e.g. INV-000123'),
      billingId: SearchText.optional().describe("billing's id of the invoice, credit note or buyer"),
    }),
    response: z.object({ matches: z.array(FoundRecord), scanned: z.number().int(), complete: z.boolean() }),
    handle: async (ctx, { query }) => {
      if ((query.number === undefined) === (query.billingId === undefined))
        throw new ApiError(400, 'BAD_REQUEST', 'give number or billingId (one of them)', 'query.number');
      const ids = query.connection ? [ctx.connection(query.connection).id] : ctx.visibleConnections().map((c) => c.id);
      const q = query.number !== undefined ? { number: query.number } : { billingId: query.billingId! };
      const r = await searchRecords(ctx.rt, ids, q);
      const matches = r.matches.map((m) => ({
        ...m,
        writtenAt: new Date(m.writtenAt).toISOString(),
        lineage: `${API_BASE}/records/${m.connection}/${m.entity}/${encodeURIComponent(m.erpId)}`,
      }));
      return { body: { ...r, matches } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/records/{connection}/{entity}/{erpId}',
    summary:
      "One ERP record's lineage (as `erp-sync explain`): source version, job, billing ids, quarantine, last reconciliation verdict",
    role: 'viewer',
    params: z.object({ connection: ConnectionId, entity: EntityParam, erpId: ErpId }),
    response: z
      .object({
        connection: z.string(),
        entity: z.string(),
        erpId: z.string(),
        source: z
          .object({ version: z.string(), status: z.string().nullable(), deletedAt: z.string().nullable() })
          .nullable()
          .describe('the source version last written to billing'),
        job: z
          .object({
            id: z.string(),
            state: z.string(),
            attemptsMade: z.number().int().optional(),
            failedReason: z.string().optional(),
          })
          .nullable(),
        billing: z
          .object({
            id: z.string(),
            number: z.string().nullable(),
            writtenAt: IsoInstant,
            contentHash: z.string(),
            attachmentUrl: z.string().nullable(),
          })
          .nullable(),
        quarantine: z
          .object({ reason: z.string(), stage: z.string(), version: z.string(), message: z.string() })
          .nullable(),
        reconciliation: z
          .object({ at: IsoInstant, window: z.string(), verdict: z.string(), detail: z.string().optional() })
          .nullable(),
        review: z
          .object({
            state: z.enum(['held', 'rejected']),
            rule: z.string(),
            version: z.string(),
            since: IsoInstant,
            by: z.string().nullable().optional(),
            note: z.string().nullable().optional(),
          })
          .nullable()
          .optional()
          .describe('held for review before write (GET /review/…), or rejected by a person, with the note'),
        history: z
          .array(
            z.object({
              outcome: z.string().describe('written, unchanged, stale, quarantined, replayed, repaired, held, …'),
              at: IsoInstant,
              version: z.string().optional().describe('the source version the outcome is for'),
              hash: z.string().optional().describe('a prefix of the content hash'),
              path: z.string().optional().describe('how it came: pull, webhook, replay, repair, …'),
              by: z.string().optional().describe('the job or run that did it'),
              billingId: z.string().optional(),
              changed: z.array(z.string()).optional().describe('a write: the fields that differ from the write before'),
              reason: z.string().optional().describe("a quarantine's reason code; a rejection's note"),
            }),
          )
          .describe('every outcome on record for it, oldest first (kept for history.days)'),
      })
      .meta({ id: 'RecordLineage' }),
    handle: async (ctx, { params }) => {
      ctx.connection(params.connection);
      const [lineage] = await explainRecord(ctx.rt, params.connection, params.erpId, [params.entity]);
      if (!lineage)
        throw notFound(
          `${params.entity}/${params.erpId} of ${params.connection}: never seen (not in the ledger, quarantine or reconciliation)`,
        );
      const { entity: _e, ...rest } = lineage;
      return { body: { connection: params.connection, entity: params.entity, erpId: params.erpId, ...rest } };
    },
  }),
];
