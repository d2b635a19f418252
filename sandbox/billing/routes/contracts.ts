import {
  AddFeeComponentBody,
  ContractFeeComponentRatecardQuery,
  ContractFilterQuery,
  PAGE_SIZE_DEFAULT,
  SelectRatecardsBody,
} from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import { badRequest, conflict, guarded, notFound } from '../errors.js';
import { fieldsMaskOf } from '../fields-mask.js';
import { pageInfo, paginate } from '../paginate.js';
import { envelopeOk } from '../responses.js';
import type { SeedContract, SetupData } from '../seed.js';
import { parseBody, parseQuery } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Contract endpoints over the seeded billing-setup data (seed.ts):
 * - 11 POST /billing/contract/feeComponent: adds a fee component to a contract; unknown contract or fee
 *   component → 404; already on the contract → 409; answers a one-document page with the contract.
 * - 12 POST /billing/contract/feeComponent/ratecard/:contractId: selects rate cards for a fee component
 *   of the contract, creating contract-fee-component-rate-card associations (selecting an already
 *   associated rate card again is a no-op). Unknown contract, fee component or rate card → 404; fee
 *   component not on the contract, rate card of another fee component or of another contract → 400.
 *   Answers a one-document page with the contract; fields mask applies.
 * - 14 GET /billing/contract/filter: A24 filters (exact matches; contract duration = contractPeriod,
 *   billing frequency = billingFrequency, value and unit each optional; nextBillingDate range
 *   inclusive), creation order, paging A1; fields mask applies.
 * - 16 GET /billing/contract/feeComponent/ratecard: the associations, optional contractId and
 *   feeComponentId filters (A26); unknown ids simply match nothing.
 * Contract records carry two extras: buyerId and feeComponents[{feeComponentId, ratecardIds}].
 */
function contractOf(setup: SetupData, contractId: string, field: string): SeedContract {
  const c = setup.contracts.find((x) => x.id === contractId);
  if (!c) throw notFound(`${field}: no contract ${contractId}`);
  return c;
}

function requireFeeComponent(setup: SetupData, feeComponentId: string): void {
  if (!setup.feeComponents.some((f) => f.id === feeComponentId))
    throw notFound(`feeComponentId: no fee component ${feeComponentId}`);
}

export function registerContractRoutes(router: Router, { store, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/billing/contract/feeComponent',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const body = parseBody(AddFeeComponentBody, ctx.body);
      const setup = store.company(companyId).setup;
      const contract = contractOf(setup, body.contractId, 'contractId');
      requireFeeComponent(setup, body.feeComponentId);
      if (contract.feeComponents.some((f) => f.feeComponentId === body.feeComponentId)) {
        throw conflict(`feeComponentId: fee component ${body.feeComponentId} is already on contract ${contract.id}`);
      }
      contract.feeComponents.push({ feeComponentId: body.feeComponentId, ratecardIds: [] });
      return envelopeOk(pageInfo([contract], 1, 1, PAGE_SIZE_DEFAULT));
    }),
  );

  router.on(
    'POST',
    '/billing/contract/feeComponent/ratecard/:contractId',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const setup = store.company(companyId).setup;
      const contract = contractOf(setup, ctx.params.contractId ?? '', 'contractId');
      const body = parseBody(SelectRatecardsBody, ctx.body);
      requireFeeComponent(setup, body.feeComponentId);
      const onContract = contract.feeComponents.find((f) => f.feeComponentId === body.feeComponentId);
      if (!onContract)
        throw badRequest(`feeComponentId: fee component ${body.feeComponentId} is not on contract ${contract.id}`);
      const ratecards = body.ratecardRelations.map(({ ratecardId }, i) => {
        const rc = setup.ratecards.find((r) => r.id === ratecardId);
        const field = `ratecardRelations.${i}.ratecardId`;
        if (!rc) throw notFound(`${field}: no rate card ${ratecardId}`);
        if (rc.feeComponentId !== body.feeComponentId) {
          throw badRequest(
            `${field}: rate card ${ratecardId} belongs to fee component ${rc.feeComponentId}, not ${body.feeComponentId}`,
          );
        }
        if (rc.contractId && rc.contractId !== contract.id)
          throw badRequest(`${field}: rate card ${ratecardId} belongs to another contract`);
        return rc;
      });
      for (const rc of ratecards) {
        if (onContract.ratecardIds.includes(rc.id)) continue;
        onContract.ratecardIds.push(rc.id);
        setup.associations.push({
          id: store.nextId('cfr'),
          contractId: contract.id,
          feeComponentId: body.feeComponentId,
          ratecardId: rc.id,
          tags: { ...(rc.tags ?? {}) },
          createdBy: { userId: 'api', userName: 'API' },
          status: 'ACTIVE',
          companyId,
        });
      }
      return envelopeOk(pageInfo([fieldsMaskOf(ctx.headers)(contract)], 1, 1, PAGE_SIZE_DEFAULT));
    }),
  );

  router.on(
    'GET',
    '/billing/contract/filter',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(ContractFilterQuery, ctx.query);
      const matches = store
        .company(companyId)
        .setup.contracts.filter(
          (c) =>
            (q.customerId === undefined || c.customerId === q.customerId) &&
            (q.buyerId === undefined || c.buyerId === q.buyerId) &&
            (q.contractDurationValue === undefined || c.contractPeriod?.value === q.contractDurationValue) &&
            (q.contractDurationUnit === undefined || c.contractPeriod?.unit === q.contractDurationUnit) &&
            (q.billingFrequencyValue === undefined || c.billingFrequency?.value === q.billingFrequencyValue) &&
            (q.billingFrequencyUnit === undefined || c.billingFrequency?.unit === q.billingFrequencyUnit) &&
            (q.nextBillingDateStart === undefined ||
              (c.nextBillingDate != null && c.nextBillingDate >= q.nextBillingDateStart)) &&
            (q.nextBillingDateEnd === undefined ||
              (c.nextBillingDate != null && c.nextBillingDate <= q.nextBillingDateEnd)) &&
            (q.status === undefined || c.status === q.status),
        );
      return envelopeOk(paginate(matches, q.pageNumber, q.pageSize, fieldsMaskOf(ctx.headers)));
    }),
  );

  router.on(
    'GET',
    '/billing/contract/feeComponent/ratecard',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const q = parseQuery(ContractFeeComponentRatecardQuery, ctx.query);
      const data = store
        .company(companyId)
        .setup.associations.filter(
          (a) =>
            (q.contractId === undefined || a.contractId === q.contractId) &&
            (q.feeComponentId === undefined || a.feeComponentId === q.feeComponentId),
        );
      return envelopeOk(data);
    }),
  );
}
