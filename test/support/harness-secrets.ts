import type { VendorCredentials } from './vendors/vendor-profile.js';
import { VENDORS, vendorProfile } from './vendors/registry.js';
import type { ConnectionSpec } from './harness-connections.js';

/** The harness's secrets, random per run unless a test sets them. */
export interface Secrets {
  billingApiKey: string;
  billingAttachmentKey: string;
  zohoClientSecret: string;
  zohoRefreshToken: string;
  /** The queue UI's token (with the real service). */
  adminToken: string;
}

/** Every other vendor's OAuth client secret and first refresh token, by system (Zoho's are in `Secrets`). */
export type VendorSecrets = Record<string, VendorCredentials>;

/** The two-companies shape's billing keys: each company's service key, a second one (to rotate to) and its attachment key. */
export interface CompanyKeys {
  acme: string;
  acmeRotated: string;
  acmeAttach: string;
  globex: string;
  globexRotated: string;
  globexAttach: string;
}

export function randomSecrets(
  suffix: string,
  given: Partial<Secrets> = {},
): { secrets: Secrets; keys: CompanyKeys; vendors: VendorSecrets } {
  const vendors: VendorSecrets = {};
  for (const system of Object.keys(VENDORS))
    vendors[system] = {
      clientSecret: `rel-${system}-secret-${suffix}`,
      refreshToken: `rel-${system}-refresh-${suffix}`,
    };
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
  return { secrets, keys, vendors };
}

/** A vendor's credentials among the harness's secrets. */
export function credentialsOf(secrets: Secrets, vendors: VendorSecrets, system: string): VendorCredentials {
  if (system === 'zoho-books')
    return { clientSecret: secrets.zohoClientSecret, refreshToken: secrets.zohoRefreshToken };
  const c = vendors[system];
  if (!c) throw new Error(`no credentials for ${system} among the harness's secrets`);
  return c;
}

/** The `${VAR}` references a vendor's connections carry in their settings. */
export function credentialRefs(system: string): VendorCredentials {
  const stem = vendorProfile(system).envStem;
  return { clientSecret: `\${REL_${stem}_CLIENT_SECRET}`, refreshToken: `\${REL_${stem}_REFRESH_TOKEN}` };
}

/**
 * The environment the config's `${VAR}` references are filled from, as a deployment's would be: billing's
 * keys, each connected vendor's credentials, the queue UI's token (`adminToken`) and the two-companies
 * shape's keys (`companyKeys`).
 */
export function secretEnvOf(
  secrets: Secrets,
  vendors: VendorSecrets,
  specs: readonly ConnectionSpec[],
  o: { adminToken?: boolean; companyKeys?: CompanyKeys } = {},
): Record<string, string> {
  const env: Record<string, string> = {
    REL_BILLING_API_KEY: secrets.billingApiKey,
    REL_BILLING_ATTACHMENT_KEY: secrets.billingAttachmentKey,
  };
  for (const system of new Set(specs.map((s) => s.system))) {
    const stem = vendorProfile(system).envStem;
    const c = credentialsOf(secrets, vendors, system);
    env[`REL_${stem}_CLIENT_SECRET`] = c.clientSecret;
    env[`REL_${stem}_REFRESH_TOKEN`] = c.refreshToken;
  }
  if (o.adminToken) env.REL_ADMIN_TOKEN = secrets.adminToken;
  const k = o.companyKeys;
  if (k)
    Object.assign(env, {
      ACME_KEY: k.acme,
      ACME_KEY_ROTATED: k.acmeRotated,
      ACME_ATTACH: k.acmeAttach,
      GLOBEX_KEY: k.globex,
      GLOBEX_KEY_ROTATED: k.globexRotated,
      GLOBEX_ATTACH: k.globexAttach,
    });
  return env;
}
