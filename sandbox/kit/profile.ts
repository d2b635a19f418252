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
  /**
   * Its entry under `connections:` in the config `erp-sync sandbox` prints (YAML lines); with `webhooks`,
   * the connection's webhook secret and its schedule while webhooks are healthy.
   */
  configEntry(webhooks?: ConnectionWebhooks): string[];
  /**
   * False for a vendor that sends no webhooks (TallyPrime): its emulator has no `/__admin/webhooks` and its
   * connection no `webhooks` entry. Undefined: it sends them.
   */
  sendsWebhooks?: boolean;
  /** What the demo does with it. */
  demo: DemoHooks;
}

export interface DemoHooks {
  connectionId: string;
  originSource: OriginSource;
  /**
   * The billing company the demo gives this connection when not its default one: an origin source every
   * other connection of the default company already writes (billing tells invoices apart by company and
   * origin only).
   */
  billingCompany?: string;
  /** Backfill range covering the generated documents. */
  from: string;
  to: string;
  /** The demo's `connections[]` entry (raw, before config parsing). */
  connection(): Record<string, unknown>;
  /** A batch of source changes (edits, new invoices, voids, deletes, payments); one line each, for the log. */
  mutate(): Promise<string[]>;
  /** Invoices the source holds now that billing takes (drafts, and those the ERP no longer counts as receivables, excluded). */
  sourceInvoices(): number;
}

/**
 * The demo's `connections[]` entry: an hourly schedule (the demo triggers its pulls itself), a 2-minute
 * lookback, no settle delay, and the rate budget the vendor's sandbox allows.
 */
export function demoConnection(c: {
  id: string;
  system: string;
  originSource: OriginSource;
  rateBudget: Record<string, number>;
  settings: Record<string, unknown>;
}): Record<string, unknown> {
  const { id, system, originSource, rateBudget, settings } = c;
  return {
    id,
    system,
    originSource,
    schedule: { everySeconds: 3600 },
    lookbackSeconds: 120,
    settleDelaySeconds: 0,
    rateBudget,
    settings,
  };
}

/** A connection's webhook entries in the printed config (the worker's `webhooks` keys). */
export interface ConnectionWebhooks {
  /** Xero: the webhook key; QuickBooks: the verifier token; Zoho Books: the custom header's value. */
  secret: string;
  /** The safety-net schedule while the connection's webhooks are healthy. */
  withWebhooksEverySeconds: number;
}

/** A connection under `connections:` in a YAML config, as lines; digit-only strings are quoted so YAML keeps them strings. */
export function configEntry(c: {
  id: string;
  system: string;
  originSource: OriginSource;
  everySeconds: number;
  settings: Record<string, string | number>;
  webhooks?: ConnectionWebhooks;
}): string[] {
  const value = (v: string | number) => (typeof v === 'string' && /^\d+$/.test(v) ? `"${v}"` : String(v));
  const schedule = c.webhooks
    ? `{ everySeconds: ${c.everySeconds}, withWebhooksEverySeconds: ${c.webhooks.withWebhooksEverySeconds} }`
    : `{ everySeconds: ${c.everySeconds} }`;
  return [
    `  - id: ${c.id}`,
    `    system: ${c.system}`,
    `    originSource: ${c.originSource}`,
    `    schedule: ${schedule}`,
    ...(c.webhooks ? ['    webhooks:', `      secret: ${value(c.webhooks.secret)}`] : []),
    '    settings:',
    ...Object.entries(c.settings).map(([k, v]) => `      ${k}: ${value(v)}`),
  ];
}

/** The OAuth fields of a connection's settings, from a sandbox's defaults (sandbox values, never real secrets). */
export function clientSettings(d: { clientId: string; clientSecret: string; refreshToken: string }): {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
} {
  return { clientId: d.clientId, clientSecret: d.clientSecret, refreshToken: d.refreshToken };
}
