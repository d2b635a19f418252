import type { Redis } from 'ioredis';
import type { BillingBinding } from './billing-companies.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const RESET = LuaScript.load('reset-connection-n');

/**
 * A connection's sync state as a whole, across the stores that each own a part of it (Checkpoints,
 * CustomersEnsured, Quarantine, InFlight, ReconcileState, SyncStatus, BillingCompanies): what must
 * change together when a person decides the connection starts over.
 */
export class ConnectionState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /**
   * Starts the connection's state over for another billing company, in one step: checkpoints (the
   * incremental ones and the backfill windows of `entities`) deleted and each entity counted as rewound
   * (Checkpoints: a pull that read the old checkpoint cannot save it), customers ensured, quarantine,
   * in-flight index, reconcile verdicts and summary, last pull errors, the review queue (bodies mapped for
   * the old company; the history read again is held anew) and its first-sync mark cleared, and `binding` set. The
   * ledger is its owner's (Ledger.forgetWritten). Returns the number of keys deleted.
   */
  async resetForCompany(connection: string, entities: readonly string[], binding: BillingBinding): Promise<number> {
    const k = this.keys;
    const keys = [
      k.checkpoint(connection),
      k.checkpointRewinds(connection),
      k.customersEnsured(connection),
      k.quarantine(connection),
      k.inFlight(connection),
      k.verdicts(connection),
      k.reconcile(connection),
      k.lastError(connection),
      k.billingCompany(connection),
      ...entities.map((e) => k.windowCheckpoint(connection, e)),
      k.review(connection),
      k.reviewIndex(connection),
      k.reviewFirstSync(connection),
    ];
    return (await RESET.run(this.redis, keys, [JSON.stringify(binding), ...entities])) as number;
  }
}
