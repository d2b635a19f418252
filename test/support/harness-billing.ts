import { type BillingEmulator, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { FaultConfigInput } from '../../sandbox/kit/faults.js';
import type { Cleanups } from './cleanups.js';
import { ACME, type ConnectionSpec, GLOBEX } from './harness-connections.js';
import type { CompanyKeys, Secrets } from './harness-secrets.js';

export interface BillingKeys {
  keys: Array<{ key: string; companyId: string }>;
  attachmentKeys: Array<{ key: string; companyId: string }>;
}

/**
 * The keys billing accepts: the default billing keys are the first connection's company's (its attachment
 * key `acceptsAttachmentKey` when billing should refuse the one the worker is given); the two-companies
 * shape adds each company's second key and Globex's own.
 */
export function billingKeysFor(
  specs: readonly ConnectionSpec[],
  secrets: Secrets,
  o: { companyKeys?: CompanyKeys; acceptsAttachmentKey?: string } = {},
): BillingKeys {
  const k = o.companyKeys;
  if (k)
    return {
      keys: [
        { key: k.acme, companyId: ACME.company },
        { key: k.acmeRotated, companyId: ACME.company },
        { key: k.globex, companyId: GLOBEX.company },
        { key: k.globexRotated, companyId: GLOBEX.company },
      ],
      attachmentKeys: [
        { key: k.acmeAttach, companyId: ACME.company },
        { key: k.globexAttach, companyId: GLOBEX.company },
      ],
    };
  const company = specs[0]!.company;
  return {
    keys: [{ key: secrets.billingApiKey, companyId: company }],
    attachmentKeys: [{ key: o.acceptsAttachmentKey ?? secrets.billingAttachmentKey, companyId: company }],
  };
}

/** The billing emulator on loopback with these keys (and faults from the start); closed by `cleanups`. */
export async function startBilling(
  cleanups: Cleanups,
  keys: BillingKeys,
  faults?: FaultConfigInput,
): Promise<BillingEmulator> {
  const billing = await startBillingEmulator({ port: 0, faults, ...keys });
  cleanups.add(() => billing.close());
  return billing;
}
