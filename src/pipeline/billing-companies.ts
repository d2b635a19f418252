import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** The billing company a connection's state was written for (names and fingerprints only, never a key). */
export interface BillingBinding {
  company: string;
  /** The fingerprint of the key last used for it: a new key of the same company is logged, not refused. */
  keyId: string;
  /** ms since epoch: when the state was bound to this company. */
  since: number;
}

/**
 * Which billing company each connection's state belongs to. The ledger and customers ensured say what
 * billing already holds; they are true of one company only, the one the connection wrote to. Written
 * once when a connection first runs, and again only by a person (`erp-sync state rebind`).
 */
export class BillingCompanies {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get(connection: string): Promise<BillingBinding | undefined> {
    const raw = await this.redis.get(this.keys.billingCompany(connection));
    return raw ? (JSON.parse(raw) as BillingBinding) : undefined;
  }

  /** Binds a connection that is not bound yet; returns the binding in force (the existing one, if any). */
  async claim(connection: string, binding: BillingBinding): Promise<BillingBinding> {
    const set = await this.redis.set(this.keys.billingCompany(connection), JSON.stringify(binding), 'NX');
    return set === 'OK' ? binding : ((await this.get(connection)) ?? binding);
  }

  /** Binds, replacing any binding (a person's decision, or a new key of the bound company). */
  async set(connection: string, binding: BillingBinding): Promise<void> {
    await this.redis.set(this.keys.billingCompany(connection), JSON.stringify(binding));
  }
}
