import { z } from 'zod';
import { explainRecord } from '../operations/explain-record.js';
import { notFound } from './errors.js';
import { defineRoute } from './route.js';
import { ConnectionId, EntityParam, ErpId, IsoInstant } from './schemas.js';

export const recordRoutes = [
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
