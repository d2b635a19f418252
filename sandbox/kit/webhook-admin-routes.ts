import { z } from 'zod';
import { CHANGE_ENTITIES, CHANGE_OPS, type ChangeEntity, type ChangeFeed, type ChangeOp } from './change-feed.js';
import type { RouteResult, Router } from './router.js';
import type { WebhookSender } from './webhook-sender.js';
import { WebhookSettingsBody } from './webhook-settings.js';
import { formatZodIssues } from './zod-issues.js';

/** `POST /__admin/changes`: the same body on every ERP sandbox. */
export const ChangesBody = z
  .strictObject({
    entity: z.enum(CHANGE_ENTITIES),
    op: z.enum(CHANGE_OPS),
    count: z.number().int().min(1).max(10_000).optional(),
    ids: z.array(z.string().min(1)).min(1).max(10_000).optional(),
    /** Where the sandbox holds several organisations; default: the one its printed config uses. */
    organisation: z.string().min(1).optional(),
  })
  .refine((b) => (b.count === undefined) !== (b.ids === undefined), { message: 'give either count or ids' });
export type ChangesBody = z.infer<typeof ChangesBody>;

/** One change `/__admin/changes` made, as it answers it. */
export interface ChangeMade {
  entity: ChangeEntity;
  op: ChangeOp;
  id: string;
  modifiedAt: string;
}

/** A change the vendor's data refuses (a paid invoice voided, a contact with invoices deleted): 400 or 404. */
export class ChangeRefused extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

/** Makes the changes one `/__admin/changes` body asks for, in the vendor's store. */
export type ApplyChanges = (body: ChangesBody) => ChangeMade[];

const bad = (status: number, message: string): RouteResult => ({ status, body: { error: message } });

/**
 * The admin routes every ERP emulator shares for webhooks and changes:
 *
 *   GET  /__admin/webhooks          {vendor, status, settings (no secret), stats, log}
 *   POST /__admin/webhooks          WebhookSettingsBody (merged); answers after the vendor's handshake, if any
 *   POST /__admin/webhooks/verify   runs the handshake again (Xero: re-enabling the subscription)
 *   POST /__admin/changes           {entity, op, count | ids, organisation?}: {changes: [{entity, op, id, modifiedAt}]}
 */
export function registerWebhookAdminRoutes(admin: Router, sender: WebhookSender, apply: ApplyChanges): void {
  admin.on('GET', '/__admin/webhooks', () => ({ status: 200, body: sender.view() }));
  admin.on('POST', '/__admin/webhooks', async (ctx) => {
    const parsed = WebhookSettingsBody.safeParse(ctx.body ?? {});
    if (!parsed.success) return bad(400, formatZodIssues(parsed.error).join('; '));
    try {
      await sender.configure(parsed.data);
    } catch (e) {
      return bad(400, (e as Error).message);
    }
    return { status: 200, body: sender.view() };
  });
  admin.on('POST', '/__admin/webhooks/verify', async () => {
    await sender.verify();
    return { status: 200, body: sender.view() };
  });
  admin.on('POST', '/__admin/changes', (ctx) => {
    const parsed = ChangesBody.safeParse(ctx.body ?? {});
    if (!parsed.success) return bad(400, formatZodIssues(parsed.error).join('; '));
    try {
      return { status: 200, body: { changes: apply(parsed.data) } };
    } catch (e) {
      if (e instanceof ChangeRefused) return bad(e.status, e.message);
      throw e;
    }
  });
}

/**
 * The records a count-based change acts on: the first `count` that qualify, in the store's order; too few
 * is a 400 naming how many qualify.
 */
export function pickEligible<T>(all: readonly T[], eligible: (r: T) => boolean, count: number, what: string): T[] {
  const picked = all.filter(eligible).slice(0, count);
  if (picked.length < count)
    throw new ChangeRefused(`only ${picked.length} ${what} can take this change; asked for ${count}`);
  return picked;
}

/**
 * Runs `fn` and answers the changes of the asked entity and op it recorded in `feed` (a create that also
 * touches an invoice answers the create only).
 */
export function changesMadeBy(feed: ChangeFeed, body: ChangesBody, fn: () => void): ChangeMade[] {
  const made: ChangeMade[] = [];
  const stop = feed.subscribe((c) => {
    if (c.entity === body.entity && c.op === body.op)
      made.push({ entity: c.entity, op: c.op, id: c.id, modifiedAt: new Date(c.modifiedAt).toISOString() });
  });
  try {
    fn();
  } finally {
    stop();
  }
  return made;
}

/** The ids a change acts on: those given, or the first `count` eligible ones. */
export function targetIds<T>(
  all: readonly T[],
  idOf: (r: T) => string,
  body: ChangesBody,
  eligible: (r: T) => boolean,
  what: string,
): string[] {
  if (body.ids) return body.ids;
  return pickEligible(all, eligible, body.count!, what).map(idOf);
}

/** How many records a create makes (a create takes no ids). */
export function createCount(body: ChangesBody): number {
  if (body.ids) throw new ChangeRefused('create takes a count, not ids');
  return body.count!;
}
