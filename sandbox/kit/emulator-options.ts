import type { FaultConfigInput } from './faults.js';

/**
 * The start options every ERP emulator takes. Each vendor's options extend these; its defaults (seed,
 * limits, credentials) are in its `sandbox-defaults.ts` or its emulator file.
 */
export interface EmulatorOptions {
  /** 0 picks a free port. @defaultValue 0 */
  port?: number;
  /** @defaultValue "127.0.0.1" */
  host?: string;
  /** Data seed: the same seed gives the same data set. */
  seed?: number | string;
  /** Invoices to generate (per organisation where the emulator has several). */
  records?: number;
  /** Requests per minute before a 429 (0 disables). */
  ratePerMinute?: number;
  /** OAuth client and the first refresh token of the sandbox (sandbox values, never real secrets). */
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  /** Lifetime of an access token, seconds. */
  accessTokenTtlSeconds?: number;
  /** Faults from the start (also what reset restores). */
  faults?: FaultConfigInput;
}
