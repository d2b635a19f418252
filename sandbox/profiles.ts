import type { SandboxProfile } from './kit/profile.js';
import { profile as quickbooks } from './quickbooks/profile.js';
import { profile as tally } from './tally/profile.js';
import { profile as xero } from './xero/profile.js';
import { profile as zohoBooks } from './zoho-books/profile.js';

/** Every ERP emulator, in the order `erp-sync sandbox` gives them ports and the demo runs them. */
export const PROFILES: readonly SandboxProfile[] = [zohoBooks, quickbooks, xero, tally];

export type {
  ConnectionWebhooks,
  DemoHooks,
  RunningSandbox,
  SandboxProfile,
  SandboxStartOptions,
} from './kit/profile.js';
