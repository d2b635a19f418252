import type { KeyRing } from '../auth.js';
import type { BillingStore } from '../billing-store.js';
import type { EmulatorClock } from '../../kit/emulator-clock.js';

/** What every route module gets. */
export interface RouteDeps {
  store: BillingStore;
  clock: EmulatorClock;
  keys: KeyRing;
}
