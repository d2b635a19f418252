import { PROFILES, type DemoHooks, type SandboxProfile } from '../../sandbox/profiles.js';

/** One ERP sandbox as the demo uses it: start it, point a connection at it, change it, count it. */
export interface DemoErp extends DemoHooks {
  system: string;
  url: string;
  close(): Promise<void>;
}

/** Starts a profile's emulator the way the demo runs it (free loopback port, vendor limits off). */
export async function startDemo(profile: SandboxProfile, records: number, seed: number): Promise<DemoErp> {
  const emu = await profile.start({ port: 0, host: '127.0.0.1', seed, records, demo: true });
  return { ...emu.demo, system: profile.name, url: emu.url, close: () => emu.close() };
}

function named(name: string): SandboxProfile {
  const profile = PROFILES.find((p) => p.name === name);
  if (!profile) throw new Error(`no sandbox profile ${name}`);
  return profile;
}

export const startZohoDemo = (records: number, seed: number): Promise<DemoErp> =>
  startDemo(named('zoho-books'), records, seed);
/** QuickBooks Online, a company whose home currency is the billing company's (INR). */
export const startQuickBooksDemo = (records: number, seed: number): Promise<DemoErp> =>
  startDemo(named('quickbooks'), records, seed);
/** Xero, the organisation whose base currency is the billing company's (INR). */
export const startXeroDemo = (records: number, seed: number): Promise<DemoErp> =>
  startDemo(named('xero'), records, seed);
