import { createHash } from 'node:crypto';
import type { ConfigIssue } from '../config-issue.js';

/**
 * The parts of the config a billing target is read from: `billing` (AppConfig's) and
 * `connections[].billing` (ConnectionConfig's), declared here so that config.ts, which runs
 * billingTargetIssues while it validates, and this file do not import each other.
 */
export interface DefaultBilling {
  billing: { apiKey: string; attachmentKey?: string | undefined; baseCurrency: string; company?: string | undefined };
}
export interface ConnectionBilling {
  billing?:
    | {
        apiKey?: string | undefined;
        attachmentKey?: string | undefined;
        baseCurrency?: string | undefined;
        company?: string | undefined;
      }
    | undefined;
}

/**
 * Which billing company a connection writes to, and with which keys. The service ties every request to
 * the company that owns the key, so a connection's key decides where its invoices land. `billing` in
 * the config is the default; `connections[].billing` may name another company's keys (the url stays
 * global: one billing service).
 */
export interface BillingTarget {
  /** Secrets: only the billing client sees them. */
  apiKey: string;
  attachmentKey?: string;
  /** The company's base currency: exchange rates are sent relative to it. */
  baseCurrency: string;
  /** Non-secret id of the company, for state and metrics: its configured name, else `key-` + the key's fingerprint. */
  company: string;
  /** Non-secret id of the key (its fingerprint): names the key's rate budget. */
  keyId: string;
}

/**
 * A short, stable, non-secret name of a key: 8 hex digits (32 bits) of a SHA-256 over the key behind a
 * fixed context string. It tells a handful of keys apart and cannot be turned back into the key; the
 * context keeps it from matching a plain hash of the key that another tool may show.
 */
export function billingKeyId(apiKey: string): string {
  return createHash('sha256').update('erp-sync billing key\n').update(apiKey).digest('hex').slice(0, 8);
}

/** The company name a key has when the config gives none. */
export function fingerprintCompany(apiKey: string): string {
  return `key-${billingKeyId(apiKey)}`;
}

/** The default billing company (`billing`): what a connection without its own keys writes to, and the outage probe asks. */
export function defaultBillingTarget(config: DefaultBilling): BillingTarget {
  const b = config.billing;
  return {
    apiKey: b.apiKey,
    attachmentKey: b.attachmentKey,
    baseCurrency: b.baseCurrency,
    company: b.company ?? fingerprintCompany(b.apiKey),
    keyId: billingKeyId(b.apiKey),
  };
}

type Resolved = BillingTarget & { sameCompanyAsDefault: boolean; baseCurrencyGiven: boolean };

function resolve(config: DefaultBilling, c: ConnectionBilling): Resolved {
  const d = defaultBillingTarget(config);
  const own = c.billing ?? {};
  const ownKey = own.apiKey !== undefined && own.apiKey !== d.apiKey;
  const apiKey = own.apiKey ?? d.apiKey;
  const company = own.company ?? (ownKey ? fingerprintCompany(apiKey) : d.company);
  // Another key may still be the default company's (a second key of it, named so): then what is the
  // company's (its attachment key, its base currency) carries over. Another company's key inherits neither.
  const sameCompanyAsDefault = company === d.company;
  return {
    apiKey,
    attachmentKey: own.attachmentKey ?? (sameCompanyAsDefault ? d.attachmentKey : undefined),
    baseCurrency: own.baseCurrency ?? d.baseCurrency,
    baseCurrencyGiven: own.baseCurrency !== undefined,
    company,
    keyId: billingKeyId(apiKey),
    sameCompanyAsDefault,
  };
}

/** The billing target of one connection (the default's, with the connection's overrides). */
export function billingTargetOf(config: DefaultBilling, c: ConnectionBilling): BillingTarget {
  const { sameCompanyAsDefault: _s, baseCurrencyGiven: _b, ...target } = resolve(config, c);
  return target;
}

/**
 * What the schema alone cannot check, each at its path, never quoting a key: a connection on another
 * company's key states that company's base currency (inheriting the default company's would send
 * exchange rates relative to the wrong currency); one company has one base currency; one key belongs
 * to one company.
 */
export function billingTargetIssues(
  config: DefaultBilling & { connections: readonly ConnectionBilling[] },
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const d = defaultBillingTarget(config);
  const currencyOf = new Map<string, { currency: string; where: string }>([
    [d.company, { currency: d.baseCurrency, where: 'billing.baseCurrency' }],
  ]);
  const companyOfKey = new Map<string, { company: string; where: string }>([
    [d.apiKey, { company: d.company, where: 'billing' }],
  ]);
  config.connections.forEach((c, i) => {
    const at = (key: string) => ['connections', String(i), 'billing', key];
    const t = resolve(config, c);
    const known = companyOfKey.get(t.apiKey);
    if (known && known.company !== t.company) {
      issues.push({
        path: at('company'),
        message: `"${t.company}", but ${known.where} uses the same apiKey as company "${known.company}": one key belongs to one company`,
      });
      return;
    }
    if (!t.sameCompanyAsDefault && !t.baseCurrencyGiven) {
      issues.push({
        path: at('baseCurrency'),
        message: `required: this connection writes to billing company "${t.company}", not the default one, and exchange rates are sent relative to that company's base currency`,
      });
      return;
    }
    companyOfKey.set(t.apiKey, known ?? { company: t.company, where: `connections.${i}.billing` });
    const currency = currencyOf.get(t.company);
    if (currency && currency.currency !== t.baseCurrency) {
      issues.push({
        path: at('baseCurrency'),
        message: `${t.baseCurrency}, but billing company "${t.company}" has ${currency.currency} at ${currency.where}: a company has one base currency`,
      });
      return;
    }
    if (!currency)
      currencyOf.set(t.company, { currency: t.baseCurrency, where: `connections.${i}.billing.baseCurrency` });
  });
  return issues;
}

/** How many billing keys the connections use (each has its own budget under `rateLimit.scope: key`). */
export function distinctBillingKeys(config: DefaultBilling & { connections: readonly ConnectionBilling[] }): number {
  return new Set(config.connections.map((c) => billingTargetOf(config, c).apiKey)).size;
}
