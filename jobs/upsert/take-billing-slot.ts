import { decideBillingWait } from '../../src/waits/billing-waits.js';
import type { UpsertRun } from './types.js';

/**
 * The key's budget (rateLimit.scope key): a full window sets this record aside until the slot it was
 * given, without an attempt, rather than hold a worker slot that another company's job could use.
 */
export async function takeBillingSlot(run: UpsertRun): Promise<void> {
  const { rt, control, keyId } = run;
  if (!rt.keyBudgets) return;
  const slot = await rt.keyBudgets.slot(keyId, run.data.billingSlotAt);
  const wait = slot.waitMs > 0 ? decideBillingWait({ kind: 'window-full', waitMs: slot.waitMs }) : undefined;
  if (wait?.action === 'wait-for-slot')
    return await control.setAside(
      { reason: 'billing-slot', at: Date.now() + wait.waitMs },
      { ...run.data, billingSlotAt: slot.slotAt },
    );
  // A slot is used once: a retry of this job after a failure asks for a new one.
  if (run.data.billingSlotAt !== undefined) {
    run.data = { ...run.data, billingSlotAt: undefined };
    await control.keep(run.data);
  }
}
