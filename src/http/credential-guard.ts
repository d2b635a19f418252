import type { Logger } from 'pino';
import type { CredentialRoute, Metrics } from '../observability/metrics.js';
import type { LimitVerdict, SignInLimiter } from '../pipeline/sign-in-limiter.js';
import { clientAddress, TrustedProxies } from './client-address.js';
import { RefusalLog } from './refusal-log.js';

/** What a guard needs of the running worker: its sign-in limiter, the live config's proxies, the metrics and the log. */
export interface GuardedRuntime {
  signInLimiter: SignInLimiter;
  config: { http: { trustedProxies: readonly string[] } };
  metrics: Pick<Metrics, 'credentialsRefused'>;
  logger: Logger;
}

/** Where a request came from, as the socket and the proxies in front say. */
export interface RequestOrigin {
  peer: string | undefined;
  forwardedFor: string | undefined;
}

/**
 * The one limit on guessing tokens, for every place the HTTP port takes one (the API's bearer tokens, the
 * queue UI's, the console's sign-in): a wrong token is counted against its client address
 * (SignInLimiter, in Redis, shared by the workers), counted in `erpsync_http_credentials_refused_total`
 * and logged (sampled: RefusalLog); a right one passes unless its address is limited. Guessing on one
 * route spends the same budget as on the others.
 */
export class CredentialGuard {
  readonly limiter: SignInLimiter;
  private readonly log: RefusalLog;

  constructor(
    private readonly rt: GuardedRuntime,
    options: { limiter?: SignInLimiter; now?: () => number } = {},
  ) {
    this.limiter = options.limiter ?? rt.signInLimiter;
    this.log = new RefusalLog(rt.logger, options.now);
  }

  /** The client address of a request (X-Forwarded-For believed from `http.trustedProxies` only). */
  addressOf(from: RequestOrigin): string {
    return clientAddress(from.peer, from.forwardedFor, new TrustedProxies(this.rt.config.http.trustedProxies));
  }

  /** Judges a token already compared (`right`): allowed, or limited (429) with the seconds to wait. */
  async judge(route: CredentialRoute, from: RequestOrigin, right: boolean): Promise<LimitVerdict> {
    const address = this.addressOf(from);
    if (right) return this.limiter.admit(address);
    const verdict = await this.limiter.fail(address);
    const outcome = verdict.allowed ? 'refused' : 'limited';
    this.rt.metrics.credentialsRefused.inc({ route, outcome });
    this.log.record({ route, address, outcome });
    return verdict;
  }
}

const guards = new WeakMap<GuardedRuntime, CredentialGuard>();

/** The runtime's one guard: the API, the queue UI and the console share its log's budget. */
export function credentialGuardOf(rt: GuardedRuntime): CredentialGuard {
  let guard = guards.get(rt);
  if (!guard) guards.set(rt, (guard = new CredentialGuard(rt)));
  return guard;
}
