import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/**
 * Buyers known to exist in billing, per connection: each buyer costs one search (and at most one
 * create), once. Adding is idempotent, so two jobs ensuring one buyer at once need no coordination.
 */
export class CustomersEnsured {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async has(connection: string, buyerId: string): Promise<boolean> {
    return (await this.redis.sismember(this.keys.customersEnsured(connection), buyerId)) === 1;
  }

  async add(connection: string, buyerId: string): Promise<void> {
    await this.redis.sadd(this.keys.customersEnsured(connection), buyerId);
  }
}
