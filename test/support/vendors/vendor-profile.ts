/**
 * What the test harness needs to know about one vendor: how to start its emulator on loopback for a test
 * (seeded data, limits off, the harness's credentials) and what a connection to it says. One file per
 * vendor beside this one, listed in `registry.ts`; a new vendor's pipeline tests need nothing else.
 */
export interface VendorProfile<E extends RunningEmulator = RunningEmulator, O = Record<string, unknown>> {
  /** The connector's `system` name (connectors/registry.ts). */
  system: string;
  /** Default connection ids are `<idPrefix>-<n>`. */
  idPrefix: string;
  /** Its secrets reach the config as `${REL_<envStem>_CLIENT_SECRET}` and `${REL_<envStem>_REFRESH_TOKEN}`. */
  envStem: string;
  /**
   * The emulator for one connection: `invoices` and `customers` generated from `seed`, the vendor's rate
   * limits off unless `options` sets them, `credentials` the only ones its token endpoint accepts.
   */
  start(i: VendorStartInput<O>): Promise<E>;
  /** The connection's `settings` for this emulator; `secret` holds the `${VAR}` references to put in. */
  settings(emulator: E, secret: VendorCredentials): Record<string, unknown>;
  /** The document dates its generator fills: a backfill of this range reads every document. */
  history(emulator: E): { from: string; to: string };
  /** The connection's `rateBudget` beside the harness's (e.g. no daily budget where the connector has one by default). */
  rateBudget?: Record<string, number>;
}

export interface RunningEmulator {
  url: string;
  close(): Promise<void>;
}

/** An OAuth client secret and the first refresh token (values, or `${VAR}` references in settings). */
export interface VendorCredentials {
  clientSecret: string;
  refreshToken: string;
}

export interface VendorStartInput<O> {
  seed: number;
  invoices: number;
  customers: number;
  credentials: VendorCredentials;
  /** The vendor's own emulator options (faults, organisation, company profile, ...), over the harness's. */
  options?: Partial<O>;
}
