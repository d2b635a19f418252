import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { defaultBillingTarget } from '../../src/billing/billing-target.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { BillingCompanyChangedError, SyncError } from '../../src/errors/index.js';
import type { BillingBinding, BillingCompanies } from '../../src/pipeline/billing-companies.js';
import type { Checkpoints } from '../../src/pipeline/checkpoints.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { SyncStatus } from '../../src/pipeline/sync-status.js';
import type { ConnectionHandle, Runtime } from '../runtime.js';

/** What the guard reads (a runtime has it all). */
export interface BillingCompanyGuardHelpers {
  logger: Logger;
  connection(id: string): Pick<ConnectionHandle, 'billing'>;
  /** The default billing company (`billing`): what state written before companies were recorded belongs to. */
  defaultCompany: { company: string; keyId: string };
  billingCompanies: Pick<BillingCompanies, 'get' | 'claim' | 'set'>;
  ledger: Pick<Ledger, 'count'>;
  checkpoints: Pick<Checkpoints, 'all'>;
}

/** A connection's billing company as configured, and the one its state belongs to. */
export interface BillingCompanyStatus {
  /** The company the config names for it now (a name, or `key-<fingerprint>`). */
  configured: string;
  /** The company its state was written for; null while it has neither state nor a binding. */
  boundTo: string | null;
  /** True when they differ: nothing of the connection is synced until a person decides. */
  refused: boolean;
}

/**
 * Keeps a connection from writing to a billing company its state does not belong to. The ledger and
 * customers ensured say "already in billing" of one company: if the connection's key became another
 * company's, that company would never get the records the ledger calls synced. A finance user can trust
 * a refusal that a person resolves (`erp-sync state rebind`), not a silent new start: a mistyped key
 * would otherwise push a connection's whole history into the wrong company's books.
 *
 * A connection is bound the first time one of its jobs runs: to the company configured for it, or, when
 * it already has state written before companies were recorded, to the default company (the only one
 * there was). A new key of the bound company (the same `company` name) is taken and logged.
 */
export function billingCompanyGuard(h: BillingCompanyGuardHelpers, cacheMs = 5_000) {
  // Connections found in order, and when: a refused one is looked up again at each job (one GET), so a
  // person's rebind takes effect at once.
  const checked = new Map<string, number>();

  async function hasState(connection: string): Promise<boolean> {
    const counts = await Promise.all(ENTITY_NAMES.map((e) => h.ledger.count(connection, e)));
    return counts.some((n) => n > 0) || Object.keys(await h.checkpoints.all(connection)).length > 0;
  }

  /**
   * The company the connection's state belongs to: the stored binding; else, with state written before
   * companies were recorded, the default company (the only one there was); else none yet.
   */
  async function boundTo(
    connection: string,
  ): Promise<{ stored?: BillingBinding; implied: { company: string; keyId: string } | null }> {
    const stored = await h.billingCompanies.get(connection);
    if (stored) return { stored, implied: stored };
    return { implied: (await hasState(connection)) ? h.defaultCompany : null };
  }

  return {
    /** For `erp-sync status`: reads only. */
    async status(connection: string): Promise<BillingCompanyStatus> {
      const configured = h.connection(connection).billing.company;
      const { implied } = await boundTo(connection);
      return {
        configured,
        boundTo: implied?.company ?? null,
        refused: implied !== null && implied.company !== configured,
      };
    },

    /**
     * Throws BillingCompanyChangedError when the connection's state belongs to another company; binds a
     * connection not bound yet. A connection found in order is not looked up again for `cacheMs`: a
     * worker still running an old config sees a rebind within that long.
     */
    async check(connection: string): Promise<void> {
      const at = checked.get(connection);
      if (at !== undefined && Date.now() - at < cacheMs) return;
      const { company, keyId } = h.connection(connection).billing;
      const { stored, implied } = await boundTo(connection);
      const binding =
        stored ??
        (await h.billingCompanies.claim(connection, { ...(implied ?? { company, keyId }), since: Date.now() }));
      if (binding.company !== company) {
        checked.delete(connection);
        throw new BillingCompanyChangedError(connection, binding.company, company);
      }
      if (binding.keyId !== keyId) {
        // The same company's name with another key: a rotated key. Taken, and said once.
        h.logger.warn(
          { connection, company, keyIdBefore: binding.keyId, keyId },
          'a new billing key for the same billing company; the state stays',
        );
        await h.billingCompanies.set(connection, { ...binding, keyId });
      }
      checked.set(connection, Date.now());
    },
  };
}
export type BillingCompanyGuard = ReturnType<typeof billingCompanyGuard>;

/** The guard of a runtime (the worker's job helpers, `erp-sync status`, the commands that sync). */
export function billingCompanyGuardOf(
  rt: Pick<Runtime, 'logger' | 'config' | 'billingOf' | 'billingCompanies' | 'ledger' | 'checkpoints'>,
  cacheMs?: number,
): BillingCompanyGuard {
  const { company, keyId } = defaultBillingTarget(rt.config);
  return billingCompanyGuard(
    {
      logger: rt.logger,
      // billingOf, not connection: a connection a reload removed keeps its company for its queued upserts.
      connection: (id) => ({ billing: rt.billingOf(id) }),
      defaultCompany: { company, keyId },
      billingCompanies: rt.billingCompanies,
      ledger: rt.ledger,
      checkpoints: rt.checkpoints,
    },
    cacheMs,
  );
}

/**
 * A processor that first checks the billing company of its job's connection: a refused connection's job
 * fails at once, unrecoverable, with the reason (`onRefused` first records what the queue needs: a pull
 * its stream's last error for `erp-sync status`; an upsert's record is quarantined as
 * BILLING_COMPANY_CHANGED by jobs/upsert/failed-upsert.ts). Logged at most once a minute per connection.
 */
export function refusingChangedBillingCompany<R>(
  guard: Pick<BillingCompanyGuard, 'check'>,
  logger: Logger,
  processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<R>,
  onRefused?: (job: Job, err: BillingCompanyChangedError) => Promise<void>,
): (job: Job, token?: string, signal?: AbortSignal) => Promise<R> {
  const logged = new Map<string, number>();
  return async (job, token, signal) => {
    const connection = (job.data as { connectionId?: unknown } | undefined)?.connectionId;
    if (typeof connection === 'string') {
      try {
        await guard.check(connection);
      } catch (err) {
        // Another refusal (an unknown connection) is as final; anything else (Redis away) is retried.
        if (err instanceof SyncError && !err.retryable && !(err instanceof BillingCompanyChangedError))
          throw new UnrecoverableError(err.message);
        if (!(err instanceof BillingCompanyChangedError)) throw err;
        if (Date.now() - (logged.get(connection) ?? 0) > 60_000) {
          logged.set(connection, Date.now());
          logger.error(
            { connection, queue: job.queueName, err: err.toJSON() },
            'billing company changed: the connection is not synced',
          );
        }
        await onRefused?.(job, err);
        throw new UnrecoverableError(err.message);
      }
    }
    return processor(job, token, signal);
  };
}

type ProcessorFn<R> = (job: Job, token?: string, signal?: AbortSignal) => Promise<R>;

/**
 * The worker's processors, guarded: `any` for upserts, backfills and reconciliations; `pull` also records
 * the refusal as its stream's last error (what `erp-sync status` shows next to "last success").
 */
export function guardedByBillingCompany(
  guard: Pick<BillingCompanyGuard, 'check'>,
  logger: Logger,
  syncStatus: Pick<SyncStatus, 'recordLastError'>,
) {
  return {
    any: <R>(p: ProcessorFn<R>) => refusingChangedBillingCompany(guard, logger, p),
    pull: <R>(p: ProcessorFn<R>) =>
      refusingChangedBillingCompany(guard, logger, p, async (job, err) => {
        const d = job.data as { connectionId: string; entity?: string; window?: unknown };
        if (d.entity && !d.window) await syncStatus.recordLastError(d.connectionId, d.entity, err.message);
      }),
  };
}
