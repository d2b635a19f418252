import type { ConnectionSlots } from '../../src/pipeline/connection-slots.js';
import type { WakeLine } from '../../src/pipeline/wake-line.js';

/**
 * At most `max` jobs of one connection run at once (every process together): a job beyond that goes back
 * to the queue for `retryMs` (plus jitter) without using an attempt, and its worker slot serves another
 * connection meanwhile. The slot is a lease of `leaseMs`, renewed while the job runs.
 */
export interface ConnectionSlotsPolicy {
  slots: Pick<ConnectionSlots, 'take' | 'release'>;
  max: number;
  leaseMs: number;
  retryMs: number;
  /** Spaces out the wake-ups of a connection's waiting jobs (both for its job slots and its vendor quota). */
  line?: Pick<WakeLine, 'next'>;
}
