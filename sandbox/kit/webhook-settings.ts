import { z } from 'zod';

/**
 * What an admin sets on an emulator's webhook sender (`POST /__admin/webhooks`); every field optional,
 * merged into the current settings. `url` is the receiver's base URL: the vendor adds its own path.
 */
export const WebhookSettingsBody = z.strictObject({
  /** The receiver's base URL (`http://127.0.0.1:4020`); null turns deliveries off. */
  url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional(),
  /** Xero: the webhook key; QuickBooks: the verifier token; Zoho Books: the custom header's value. */
  secret: z.string().min(1).optional(),
  /** Time from a change to its delivery; changes inside it are batched where the vendor batches. */
  delayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** Share of deliveries sent twice. */
  duplicateRate: z.number().min(0).max(1).optional(),
  /** Share of deliveries never sent (and never retried). */
  dropRate: z.number().min(0).max(1).optional(),
  /** Shuffle the deliveries of one window before sending them. */
  reorder: z.boolean().optional(),
  /** Replaces the vendor's retry schedule (ms between attempts); [] = no retries. */
  retryDelaysMs: z.array(z.number().int().min(0)).max(100).optional(),
  /** How long a receiver has to answer before the attempt counts as failed. */
  timeoutMs: z.number().int().min(1).max(60_000).optional(),
  /** Seed of the drop, duplicate and reorder decisions (and of ids in payloads). */
  seed: z.union([z.number().int(), z.string()]).optional(),
  /** QuickBooks: "cloudevents" (default) or "legacy" (`eventNotifications`). */
  format: z.string().optional(),
  /** Zoho Books: the connection id in the webhook URL the user typed into Zoho. */
  connection: z.string().min(1).optional(),
  /** Xero: when intent to receive fails, try it again after this long (0: do not). */
  intentRetryMs: z.number().int().min(0).optional(),
});
export type WebhookSettingsBody = z.infer<typeof WebhookSettingsBody>;

export interface WebhookSettings {
  url: string | null;
  secret: string | null;
  delayMs: number;
  duplicateRate: number;
  dropRate: number;
  reorder: boolean;
  retryDelaysMs: number[] | null;
  timeoutMs: number | null;
  seed: number | string;
  format: string | null;
  connection: string | null;
  intentRetryMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  url: null,
  secret: null,
  delayMs: 0,
  duplicateRate: 0,
  dropRate: 0,
  reorder: false,
  retryDelaysMs: null,
  timeoutMs: null,
  seed: 1,
  format: null,
  connection: null,
  intentRetryMs: 0,
};
