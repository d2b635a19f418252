import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { FaultConfigInput } from '../../sandbox/kit/faults.js';
import { startZohoEmulator, type ZohoEmulator, type ZohoEmulatorOptions } from '../../sandbox/zoho-books/index.js';
import { ACME, type ConnectionSpec, GLOBEX } from './harness-config.js';

/** The harness's secrets, random per run unless a test sets them. */
export interface Secrets {
  billingApiKey: string;
  billingAttachmentKey: string;
  zohoClientSecret: string;
  zohoRefreshToken: string;
  /** The queue UI's token (with the real service). */
  adminToken: string;
}

/** The two-companies shape's billing keys: each company's service key, a second one (to rotate to) and its attachment key. */
export interface CompanyKeys {
  acme: string;
  acmeRotated: string;
  acmeAttach: string;
  globex: string;
  globexRotated: string;
  globexAttach: string;
}

export function randomSecrets(suffix: string, given: Partial<Secrets> = {}): { secrets: Secrets; keys: CompanyKeys } {
  const secrets: Secrets = {
    billingApiKey: `rel-billing-key-${suffix}`,
    billingAttachmentKey: `rel-attach-key-${suffix}`,
    zohoClientSecret: `rel-zoho-secret-${suffix}`,
    zohoRefreshToken: `1000.rel-zoho-refresh-${suffix}`,
    adminToken: `rel-admin-token-${suffix}`,
    ...given,
  };
  // Acme's keys are the default billing keys.
  const keys: CompanyKeys = {
    acme: secrets.billingApiKey,
    acmeRotated: `tc-acme-key2-${suffix}`,
    acmeAttach: secrets.billingAttachmentKey,
    globex: `tc-globex-key-${suffix}`,
    globexRotated: `tc-globex-key2-${suffix}`,
    globexAttach: `tc-globex-attach-${suffix}`,
  };
  return { secrets, keys };
}

export interface EmulatorsInput {
  companies: 'one' | 'two';
  specs: ConnectionSpec[];
  secrets: Secrets;
  keys: CompanyKeys;
  /** The attachment key billing accepts (one-company shape), when it should not be the one the worker is given. */
  billingAcceptsAttachmentKey?: string;
  billingFaults?: FaultConfigInput;
  invoices: number;
  customers: number;
  /** Extra options of the first connection's Zoho emulator (faults, seed, ...). */
  zoho?: Partial<ZohoEmulatorOptions>;
}

/**
 * The billing emulator (the shape's companies and keys) and one Zoho Books emulator per connection, on
 * loopback. Each one started is handed to `started` at once, so the caller closes what a failure left.
 */
export async function startEmulators(
  i: EmulatorsInput,
  started: (e: { close(): Promise<void> }) => void,
): Promise<{ billing: BillingEmulator; zoho: ZohoEmulator[] }> {
  const { secrets, keys } = i;
  const billing = await startBillingEmulator({
    port: 0,
    faults: i.billingFaults,
    ...(i.companies === 'two'
      ? {
          keys: [
            { key: keys.acme, companyId: ACME.company },
            { key: keys.acmeRotated, companyId: ACME.company },
            { key: keys.globex, companyId: GLOBEX.company },
            { key: keys.globexRotated, companyId: GLOBEX.company },
          ],
          attachmentKeys: [
            { key: keys.acmeAttach, companyId: ACME.company },
            { key: keys.globexAttach, companyId: GLOBEX.company },
          ],
        }
      : {
          keys: [{ key: secrets.billingApiKey, companyId: i.specs[0]!.company }],
          attachmentKeys: [
            { key: i.billingAcceptsAttachmentKey ?? secrets.billingAttachmentKey, companyId: i.specs[0]!.company },
          ],
        }),
  });
  started(billing);
  const zoho: ZohoEmulator[] = [];
  for (const [n, spec] of i.specs.entries()) {
    const z = await startZohoEmulator({
      port: 0,
      seed: spec.seed,
      ...(spec.organizationId ? { organizationId: spec.organizationId } : {}),
      records: i.invoices,
      customers: i.customers,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
      clientSecret: secrets.zohoClientSecret,
      refreshToken: secrets.zohoRefreshToken,
      ...(n === 0 ? i.zoho : {}),
    });
    started(z);
    zoho.push(z);
  }
  return { billing, zoho };
}
