import { z } from 'zod';

/**
 * The names every folder shares, declared once: the entities a connection syncs (stream names, job
 * payloads, ledger keys, CLI options) and the source systems a connection may name in the config.
 */
export const ENTITY_NAMES = ['invoices', 'credit-notes', 'customers'] as const;
export const Entity = z.enum(ENTITY_NAMES);
export type EntityName = z.infer<typeof Entity>;

export const SYSTEM_NAMES = ['zoho-books', 'quickbooks', 'xero', 'tally'] as const;
export const System = z.enum(SYSTEM_NAMES);
export type SystemName = z.infer<typeof System>;

/** True when `value` names an entity (for CLI options and other untyped input). */
export function isEntityName(value: string): value is EntityName {
  return (ENTITY_NAMES as readonly string[]).includes(value);
}
