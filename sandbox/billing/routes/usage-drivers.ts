import { UsageDriverFilterQuery, UsageDriverInput } from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import type { StoredUsageDriver } from '../billing-store.js';
import { formatServiceTimestamp } from '../service-timestamp.js';
import { conflict, guarded } from '../errors.js';
import { paginate } from '../paginate.js';
import { envelopeOk } from '../responses.js';
import { parseBody, parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Endpoints 9 (POST /billing/usageDriver) and 10 (GET /billing/usageDriver/filter).
 * A23: name, description, unit required, productId optional; names unique per company (exact match,
 * → 409); the filters name / description / unit are case-insensitive substrings; paging as A1;
 * results in creation order. Record: id, name, description, unit, productId, companyId, createdAt.
 */
function toRecord(companyId: string, d: StoredUsageDriver): Record<string, unknown> {
  return {
    id: d.id,
    name: d.input.name,
    description: d.input.description,
    unit: d.input.unit,
    productId: d.input.productId ?? null,
    companyId,
    createdAt: formatServiceTimestamp(d.createdAtMs),
  };
}

export function registerUsageDriverRoutes(router: Router, { store, clock, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/billing/usageDriver',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const input = parseBody(UsageDriverInput, ctx.body);
      const company = store.company(companyId);
      if (company.usageDriverNames.has(input.name))
        throw conflict(`name: a usage driver named ${input.name} already exists`);
      const driver: StoredUsageDriver = { id: store.nextId('ud'), input, createdAtMs: clock.now() };
      company.usageDrivers.push(driver);
      company.usageDriverNames.add(input.name);
      return envelopeOk({ id: driver.id });
    }),
  );

  router.on(
    'GET',
    '/billing/usageDriver/filter',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(UsageDriverFilterQuery, ctx.query);
      const has = (value: string, needle: string | undefined) =>
        needle === undefined || value.toLowerCase().includes(needle.toLowerCase());
      const matches = store
        .company(companyId)
        .usageDrivers.filter(
          (d) => has(d.input.name, q.name) && has(d.input.description, q.description) && has(d.input.unit, q.unit),
        );
      return envelopeOk(paginate(matches, q.pageNumber, q.pageSize, (d) => toRecord(companyId, d)));
    }),
  );
}
