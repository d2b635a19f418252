import type { RunningQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import type { XeroEmulator } from '../../../sandbox/xero/index.js';
import type { ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { quickbooks } from './quickbooks.js';
import type { VendorProfile } from './vendor-profile.js';
import { xero } from './xero.js';
import { zohoBooks } from './zoho-books.js';

/** Each vendor's running emulator, by connector system name: what `h.emulatorOf(id, system)` returns. */
export interface VendorEmulators {
  'zoho-books': ZohoEmulator;
  quickbooks: RunningQuickBooksEmulator;
  xero: XeroEmulator;
}
export type VendorSystem = keyof VendorEmulators;

/** Every vendor the harness can start. A new vendor: its profile file here, and one line in each list. */
export const VENDORS: { [S in VendorSystem]: VendorProfile<VendorEmulators[S], never> } = {
  'zoho-books': zohoBooks,
  quickbooks,
  xero,
};

export function vendorProfile(system: string): VendorProfile {
  const p = (VENDORS as Record<string, VendorProfile<any, any>>)[system];
  if (!p) throw new Error(`no test vendor profile for system "${system}" (test/support/vendors/registry.ts)`);
  return p;
}
