import type { Logger } from 'pino';
import type { z } from 'zod';
import { RateLimitedError } from '../../src/errors/index.js';
import { VendorClient, type VendorClientOptions, type VendorRequest } from '../../src/http/vendor-client.js';

/**
 * The shared VendorClient plus one Xero rule: a DAY-limit 429 parks this connection until the reset
 * (`park(now + Retry-After)`, i.e. Quotas.park for this connection only), then the RateLimitedError (scope
 * 'day') goes up. The pull job is then delayed by the park (QuotaParkedError on its next quota slot) instead
 * of failing, and other connections — other Xero organisations — are untouched (reference trap 20).
 * Minute limits are not parked here: the shared client waits their Retry-After in-process (≤ 5 s).
 */
export class XeroVendorClient extends VendorClient {
  constructor(
    options: VendorClientOptions,
    private readonly park?: (untilMs: number) => Promise<void>,
    private readonly logger?: Logger,
  ) {
    super(options);
  }

  override async request<T extends z.ZodTypeAny>(req: VendorRequest<T>): Promise<z.infer<T>> {
    try {
      return await super.request(req);
    } catch (err) {
      if (err instanceof RateLimitedError && err.scope === 'day' && this.park) {
        const until = Date.now() + (err.retryAfterMs ?? 0);
        try {
          await this.park(until);
          this.logger?.warn({ until: new Date(until).toISOString(), endpoint: req.endpoint }, 'Xero daily limit reached: connection parked until the reset');
        } catch (parkErr) {
          this.logger?.error({ err: (parkErr as Error).message }, 'could not park the connection after a Xero day-limit 429');
        }
      }
      throw err;
    }
  }
}
