import { z } from 'zod';
import { TimeoutMs } from '../../src/connector/timeout-ms.js';

/**
 * A Tally connection's settings (`connections[].settings` in the YAML config), parsed once when the config
 * is loaded. Direct mode: the worker calls the TallyPrime server itself (TallyPrime "acts as Server" under
 * Data Synchronization, default port 9000; https://help.tallysolutions.com/integration-with-tallyprime/ and
 * https://help.tallysolutions.com/pre-requisites-for-integrations/). TallyPrime takes no credentials: whoever
 * reaches the port reads the books, so the URL must be reachable only from the worker (README, "Reaching Tally").
 */
export const Settings = z.strictObject({
  /**
   * How the worker reaches Tally. `direct`: it calls the TallyPrime server at `url` itself. An agent mode
   * (a process beside Tally pushing to the worker, for a PC the worker cannot reach) comes as another value
   * here. @defaultValue "direct"
   */
  mode: z.enum(['direct']).default('direct'),
  /** The TallyPrime server, e.g. `http://10.0.4.17:9000`. */
  url: z.url(),
  /** The company as Tally names it (SVCURRENTCOMPANY); it must be loaded (open) in Tally. */
  company: z.string().trim().min(1),
  /**
   * How requests are encoded; TallyPrime answers in the request's encoding. UTF-16 carries every
   * character Tally holds (https://help.tallysolutions.com/general-attributes-integration/). @defaultValue "utf-16"
   */
  encoding: z.enum(['utf-16', 'utf-8']).default('utf-16'),
  /**
   * AlterIDs per request: each read asks for one range of AlterIDs, so an answer holds at most this many
   * objects whatever the company's size (TallyPrime serves one request at a time and builds the whole
   * answer before sending it). @defaultValue 500
   */
  rangeSize: z.number().int().min(1).max(20_000).default(500),
  /** How long the company's GST ledgers and state are cached per process, seconds. @defaultValue 3600 */
  lookupsCacheSeconds: z.number().int().min(0).default(3600),
  /** Whole-request timeout of every call, ms (src/connector/timeout-ms.ts). @defaultValue 30000 */
  timeoutMs: TimeoutMs,
});
export type Settings = z.output<typeof Settings>;
export type SettingsInput = z.input<typeof Settings>;
