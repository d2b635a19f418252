import type {
  ContractFeeComponentRatecardRecord,
  ContractRecord,
  FeeComponentTagRecord,
  RatecardRecord,
} from '../../src/billing/schemas/index.js';
import { Decimal } from 'decimal.js';

/**
 * Billing-setup seed data per company, generated deterministically from (seed, companyId): fee
 * components, their tags, default and contract-specific rate cards, contracts (some with fee components
 * already attached) and a few contract-fee-component-rate-card associations. Every record parses with
 * the schemas of src/billing/schemas/billing-setup.ts. Ids carry the company (`ctr_acme_001`), so
 * another company's ids are simply unknown.
 */

export interface FeeComponent {
  id: string;
  name: string;
  description: string;
  unit: string;
  companyId: string;
}

/** A contract record plus what the emulator tracks about it (both returned; extras are documented). */
export type SeedContract = ContractRecord & {
  id: string;
  /** Extra field: the buyer the contract belongs to (contract filter by buyerId, A24). */
  buyerId: string;
  /** Extra field: fee components on the contract, each with its selected rate cards. */
  feeComponents: Array<{ feeComponentId: string; ratecardIds: string[] }>;
};

export interface SetupData {
  feeComponents: FeeComponent[];
  tags: FeeComponentTagRecord[];
  ratecards: RatecardRecord[];
  contracts: SeedContract[];
  associations: ContractFeeComponentRatecardRecord[];
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const UNIT_MONTHS: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

const FEE_COMPONENTS = [
  { name: 'Platform subscription', description: 'Monthly platform access', unit: 'seat' },
  { name: 'API calls', description: 'Metered API requests', unit: 'count' },
  { name: 'Storage', description: 'Stored data, GB-month', unit: 'GB' },
  { name: 'Support', description: 'Premium support hours', unit: 'minutes' },
];

const TAGS: Array<{ name: string; values: string[] }> = [
  { name: 'region', values: ['IN', 'US', 'EU'] },
  { name: 'tier', values: ['standard', 'premium'] },
];

const SEED_USER = Object.freeze({ userId: 'seed', userName: 'Seed data' });

export function seedBillingSetup(companyId: string, seed: number, currency: string): SetupData {
  const rand = prng(seed ^ hashString(companyId));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const money = (min: number, max: number) =>
    new Decimal(min)
      .plus(new Decimal(max - min).times(rand().toFixed(6)))
      .toDecimalPlaces(2)
      .toNumber();
  const createdBy = () => ({ ...SEED_USER });

  const feeComponents: FeeComponent[] = FEE_COMPONENTS.map((f, i) => ({
    id: `fc_${companyId}_${pad(i + 1, 2)}`,
    ...f,
    companyId,
  }));

  const tags: FeeComponentTagRecord[] = [];
  const ratecards: RatecardRecord[] = [];
  let rc = 0;
  const ratecard = (
    fc: FeeComponent,
    combo: Record<string, string>,
    contractId: string | null,
    isDefault: boolean,
  ): RatecardRecord => {
    rc += 1;
    const start = addDays('2024-01-01', Math.floor(rand() * 180));
    const tiered = rand() < 0.4;
    return {
      id: `rc_${companyId}_${pad(rc, 3)}`,
      name: `${fc.name} ${Object.values(combo).join('/')}${contractId ? ' (contract)' : ''}`,
      ratecardDescription: `${fc.description} for ${Object.entries(combo)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      feeComponentId: fc.id,
      description: fc.description,
      ratecardDetail: tiered
        ? {
            pricingModel: 'TIERED',
            unit: fc.unit,
            tiers: [
              { from: 0, to: 1000, unitPrice: money(1, 5) },
              { from: 1000, to: null, unitPrice: money(0.1, 1) },
            ],
          }
        : { pricingModel: 'PER_UNIT', unit: fc.unit, unitPrice: money(1, 50) },
      tags: { ...combo },
      companyId,
      contractId,
      currency,
      currencyId: null,
      createdBy: createdBy(),
      isDefault,
      status: 'ACTIVE',
      isTierSplitEnabled: tiered,
      startDate: start,
      endDate: addMonths(start, 24),
      fallBackRatecardId: null,
    };
  };

  for (const fc of feeComponents) {
    TAGS.forEach((t, i) =>
      tags.push({
        id: `fct_${fc.id.slice(3)}_${pad(i + 1, 2)}`,
        name: t.name,
        values: [...t.values],
        feeComponentId: fc.id,
        status: 'ACTIVE',
        companyId,
        createdBy: createdBy(),
      }),
    );
    // Default rate cards for some tag combinations only (so "empty" combinations exist).
    let first = true;
    for (const region of TAGS[0]!.values) {
      for (const tier of TAGS[1]!.values) {
        if (!first && rand() < 0.5) continue;
        ratecards.push(ratecard(fc, { region, tier }, null, first));
        first = false;
      }
    }
  }

  const STATUSES = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'DRAFT', 'CANCELLED', 'EXPIRED'] as const;
  const contracts: SeedContract[] = [];
  const associations: ContractFeeComponentRatecardRecord[] = [];
  for (let i = 1; i <= 8; i++) {
    const id = `ctr_${companyId}_${pad(i, 3)}`;
    const period = { value: pick([1, 2, 3]), unit: 'YEAR' };
    const frequency = pick([
      { value: 1, unit: 'MONTH' },
      { value: 3, unit: 'MONTH' },
      { value: 1, unit: 'QUARTER' },
      { value: 1, unit: 'YEAR' },
    ]);
    const startDate = addDays('2024-01-01', Math.floor(rand() * 365));
    const months = (UNIT_MONTHS[frequency.unit] ?? 1) * frequency.value;
    const buyerId = `BUYER-${pad(((i - 1) % 5) + 1, 3)}`;
    const onContract = feeComponents.filter((_, k) => k === (i - 1) % feeComponents.length);
    contracts.push({
      id,
      customerId: `cus_seed_${companyId}_${buyerId}`,
      buyerId,
      contractNumber: `CN-${companyId.toUpperCase()}-${pad(i, 4)}`,
      contractTitle: `Usage agreement ${i}`,
      contractPeriod: period,
      renewalPeriod: { value: 1, unit: 'YEAR' },
      noteContract: null,
      billingFrequency: frequency,
      usageBillingCycle: { value: 1, unit: 'MONTH' },
      estimateCycle: null,
      billingTime: pick(['START_OF_PERIOD', 'END_OF_PERIOD']),
      startDate,
      virtualStartDate: startDate,
      endDate: addDays(addMonths(startDate, 12 * period.value), -1),
      nextBillingDate: addMonths(startDate, months * (1 + Math.floor(rand() * 4))),
      billingDiscounts: [],
      isPreusage: rand() < 0.3,
      billingReportLimit: null,
      contractLimit: null,
      creditTermId: null,
      poNumber: `PO-${pad(1000 + i, 5)}`,
      placeOfSupply: pick(['KA', 'MH', 'DL', 'TN']),
      billingAddress: { line1: `${i} Main Road`, city: 'Bengaluru', state: 'KA', country: 'IN', zipCode: '560001' },
      shippingAddress: null,
      totalInvoicedAmount: money(0, 500000),
      noteInvoice: null,
      terms: null,
      advanceConfig: null,
      invoiceSplitConfig: null,
      gstin: null,
      companyGstin: null,
      currency,
      currencyId: null,
      companyId,
      createdBy: createdBy(),
      updatedBy: createdBy(),
      status: STATUSES[(i - 1) % STATUSES.length]!,
      autoRenew: rand() < 0.5,
      feeComponents: onContract.map((fc) => ({ feeComponentId: fc.id, ratecardIds: [] })),
    });
  }
  // Contract-specific rate cards for the first two contracts' fee components.
  for (const c of contracts.slice(0, 2)) {
    for (const f of c.feeComponents) {
      const fc = feeComponents.find((x) => x.id === f.feeComponentId)!;
      ratecards.push(ratecard(fc, { region: 'IN', tier: 'premium' }, c.id, false));
    }
  }
  // The first contract already has its fee component's default rate card selected.
  const c1 = contracts[0]!;
  const f1 = c1.feeComponents[0]!;
  const default1 = ratecards.find((r) => r.feeComponentId === f1.feeComponentId && r.contractId === null)!;
  f1.ratecardIds.push(default1.id);
  associations.push({
    id: `cfr_${companyId}_001`,
    contractId: c1.id,
    feeComponentId: f1.feeComponentId,
    ratecardId: default1.id,
    tags: { ...(default1.tags ?? {}) },
    createdBy: createdBy(),
    status: 'ACTIVE',
    companyId,
  });
  return { feeComponents, tags, ratecards, contracts, associations };
}
