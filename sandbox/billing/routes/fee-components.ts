import { FeeComponentRatecardQuery } from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import { guarded, notFound } from '../errors.js';
import { fieldsMaskOf } from '../fields-mask.js';
import { envelopeOk } from '../responses.js';
import type { SetupData } from '../seed.js';
import { parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Fee component endpoints over the seeded billing-setup data:
 * - 13 GET /billing/ratecard/feeComponent/fetch/:feeComponentId (A25): `ratecards` = the fee
 *   component's default rate cards (no contract), plus — with `contractId` — that contract's own rate
 *   cards; `tags` = { tagName: values[] } from the fee component's tags; with
 *   `includeEmptyTagCombinations=false` only values used by some returned rate card are kept.
 *   Unknown fee component or contract → 404. The fields mask applies to each rate card.
 * - 15 GET /billing/feeComponentTag/fetch/feeComponent/:feeComponentId: the tag records; 404 unknown.
 */
function requireFeeComponent(setup: SetupData, id: string): void {
  if (!setup.feeComponents.some((f) => f.id === id)) throw notFound(`feeComponentId: no fee component ${id}`);
}

export function registerFeeComponentRoutes(router: Router, { store, keys }: RouteDeps): void {
  router.on(
    'GET',
    '/billing/ratecard/feeComponent/fetch/:feeComponentId',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(FeeComponentRatecardQuery, ctx.query);
      const setup = store.company(companyId).setup;
      const fcId = ctx.params.feeComponentId ?? '';
      requireFeeComponent(setup, fcId);
      if (q.contractId !== undefined && !setup.contracts.some((c) => c.id === q.contractId)) {
        throw notFound(`contractId: no contract ${q.contractId}`);
      }
      const ratecards = setup.ratecards.filter(
        (r) => r.feeComponentId === fcId && (r.contractId == null || r.contractId === q.contractId),
      );
      const tags: Record<string, string[]> = {};
      for (const t of setup.tags.filter((x) => x.feeComponentId === fcId)) {
        const name = t.name ?? t.id;
        const values = t.values ?? [];
        tags[name] = q.includeEmptyTagCombinations
          ? [...values]
          : values.filter((v) => ratecards.some((r) => r.tags?.[name] === v));
      }
      return envelopeOk({ tags, ratecards: ratecards.map(fieldsMaskOf(ctx.headers)) });
    }),
  );

  router.on(
    'GET',
    '/billing/feeComponentTag/fetch/feeComponent/:feeComponentId',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const setup = store.company(companyId).setup;
      const fcId = ctx.params.feeComponentId ?? '';
      requireFeeComponent(setup, fcId);
      return envelopeOk(setup.tags.filter((t) => t.feeComponentId === fcId));
    }),
  );
}
