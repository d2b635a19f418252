import type { Cleanups } from './cleanups.js';
import type { ConnectionSpec } from './harness-connections.js';
import { credentialsOf, type Secrets, type VendorSecrets } from './harness-secrets.js';
import type { RunningEmulator } from './vendors/vendor-profile.js';
import { vendorProfile } from './vendors/registry.js';

/** The generated data of every connection's emulator, unless the connection says otherwise. */
export interface DataSize {
  invoices: number;
  customers: number;
}

/** A connection's running emulator. */
export interface StartedVendor {
  spec: ConnectionSpec;
  emulator: RunningEmulator;
}

/**
 * One emulator per connection, of its vendor, on loopback, one after the other (each closed by
 * `cleanups` as soon as it runs): the connection's seed and data size, the harness's credentials.
 */
export async function startVendorEmulators(
  cleanups: Cleanups,
  specs: readonly ConnectionSpec[],
  secrets: Secrets,
  vendorSecrets: VendorSecrets,
  size: DataSize,
): Promise<StartedVendor[]> {
  const out: StartedVendor[] = [];
  for (const spec of specs) {
    const emulator = await vendorProfile(spec.system).start({
      seed: spec.seed,
      invoices: spec.invoices ?? size.invoices,
      customers: spec.customers ?? size.customers,
      credentials: credentialsOf(secrets, vendorSecrets, spec.system),
      options: spec.emulator,
    });
    cleanups.add(() => emulator.close());
    out.push({ spec, emulator });
  }
  return out;
}
