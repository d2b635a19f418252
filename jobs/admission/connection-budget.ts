import type { RateBudget } from '../../src/connector/types.js';
import type { ConnectionHandle } from '../runtime.js';

/**
 * A connection's vendor budget (per minute, per day, concurrency): its connector's, for its settings
 * where that depends on them, with the connection's own `rateBudget` over it. The same rule the
 * runtime's vendor clients acquire their quota slots with (app/create-runtime.ts).
 */
export function connectionBudget(handle: Pick<ConnectionHandle, 'config' | 'connector'>): RateBudget {
  const { config: c, connector } = handle;
  return { ...(connector.rateBudgetFor?.(c.settings) ?? connector.rateBudget), ...(c.rateBudget ?? {}) };
}
