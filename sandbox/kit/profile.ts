import type { OriginSource } from '../../src/billing/schemas/index.js';

/**
 * What every ERP emulator folder exports as `profile`, so the `erp-sync sandbox` command and the demo loop
 * over `sandbox/profiles.ts` instead of naming vendors. A new vendor emulator is one more profile there.
 */
export interface SandboxProfile {
  /** The connector's system name, also the `erp-sync sandbox <name>` command. */
  name: string;
  /** The `erp-sync sandbox <name>` command: its help line, default port, and what `--records` counts. */
  command: { description: string; defaultPort: number; recordsHelp: string };
  start(options: SandboxStartOptions): Promise<RunningSandbox>;
}

export interface SandboxStartOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  seed: number;
  /** Invoices to generate (per organisation where the emulator has several). */
  records: number;
  /**
   * The demo's emulator: vendor limits off (the demo shows the pipeline, not the throttle) and a data set
   * sized for it. Otherwise the vendor's documented limits, as `erp-sync sandbox` runs it.
   */
  demo?: boolean;
}

export interface RunningSandbox {
  url: string;
  close(): Promise<void>;
  /** The lines `erp-sync sandbox` prints about it: where it listens, the credentials, the admin endpoints. */
  describe(): string[];
  /** Its entry under `connections:` in the config `erp-sync sandbox` prints (YAML lines). */
  configEntry(): string[];
  /** What the demo does with it. */
  demo: DemoHooks;
}

export interface DemoHooks {
  connectionId: string;
  originSource: OriginSource;
  /** Backfill range covering the generated documents. */
  from: string;
  to: string;
  /** The demo's `connections[]` entry (raw, before config parsing). */
  connection(): Record<string, unknown>;
  /** A batch of source changes (edits, new invoices, voids, deletes, payments); one line each, for the log. */
  mutate(): Promise<string[]>;
  /** Invoices the source holds now (those the ERP no longer counts as receivables excluded). */
  sourceInvoices(): number;
}
