import type { CompanyKey } from '../../sandbox/billing/auth.js';
import type { Running } from './start-emulator.js';

/** The billing emulator's code, loaded when a sandbox starts (every command is registered in every process, a worker too). */
const billingEmulator = () => import('../../sandbox/billing/billing-emulator.js');

/** The running billing emulator, with the keys it accepts. */
export type RunningBilling = Running & { keys: readonly CompanyKey[]; attachmentKeys: readonly CompanyKey[] };

/** The billing emulator; `keys` and `attachmentKeys` undefined: its default ones. */
export async function startBillingSandbox(
  port: number,
  host: string,
  keys?: readonly CompanyKey[],
  attachmentKeys?: readonly CompanyKey[],
  seed = 1,
): Promise<RunningBilling> {
  const { DEFAULT_ATTACHMENT_KEYS, DEFAULT_KEYS, startBillingEmulator } = await billingEmulator();
  keys ??= DEFAULT_KEYS;
  attachmentKeys ??= DEFAULT_ATTACHMENT_KEYS;
  const emu = await startBillingEmulator({ port, host, keys, attachmentKeys, seed });
  return {
    url: emu.url,
    close: () => emu.close(),
    describe: () => [
      `billing emulator      ${emu.url}`,
      ...keys.map((k) => `  X-Service-Signature ${k.key} → company ${k.companyId}`),
      ...attachmentKeys.map((k) => `  X-Service-Attachment-Upload-Signature ${k.key} → company ${k.companyId}`),
      `  admin: ${emu.url}/__admin/{reset,clock,faults,journal,stats,seed,invoices}`,
    ],
    configEntry: () => [],
    keys,
    attachmentKeys,
  };
}
