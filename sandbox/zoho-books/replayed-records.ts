import { z } from 'zod';
import { parseZohoDate, parseZohoTimestamp } from './zoho-timestamp.js';

/**
 * Records replayed in Zoho's own JSON (`POST /__admin/records`, `POST /__admin/organisation`): a
 * `GET /invoices/{id}`, `/creditnotes/{id}` or `/contacts/{id}` body's inner object, kept exactly as
 * given and served as Zoho serves it — the detail as stored, list rows as Zoho's summary of it (the
 * row keys of https://www.zoho.com/books/api/v3/invoices/#list-invoices and its siblings), filtered by
 * the record's own `last_modified_time` (credit-note details call it `updated_time`). A replayed record
 * replaces a generated one with the same id.
 *
 * Entity names are Zoho's own path segments: `invoices`, `creditnotes`, `contacts`.
 */
export const ZOHO_REPLAY_ENTITIES = ['invoices', 'creditnotes', 'contacts'] as const;
export type ZohoReplayEntity = (typeof ZOHO_REPLAY_ENTITIES)[number];
export type ZohoRaw = Record<string, unknown>;

/** Zoho ids are printed as strings, but its own published examples print some as numbers. */
const Id = z.union([z.string().min(1), z.number().int().nonnegative()]);
const Timestamp = z
  .string()
  .refine((s) => parseZohoTimestamp(s, 0) !== undefined, 'expected a Zoho timestamp (yyyy-MM-ddTHH:mm:ss±hhmm)');
const DateText = z.string().refine((s) => parseZohoDate(s) !== undefined, 'expected a date (yyyy-mm-dd)');
const Amount = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal number')]);

const ZohoInvoiceReplay = z.looseObject({
  invoice_id: Id,
  invoice_number: z.string(),
  date: DateText,
  status: z.string().min(1),
  customer_id: Id,
  customer_name: z.string(),
  currency_code: z.string().length(3),
  total: Amount,
  line_items: z.array(z.looseObject({})),
  last_modified_time: Timestamp,
  created_time: Timestamp.optional(),
});

const ZohoCreditNoteReplay = z
  .looseObject({
    creditnote_id: Id,
    creditnote_number: z.string(),
    date: DateText,
    status: z.string().min(1),
    customer_id: Id,
    customer_name: z.string(),
    currency_code: z.string().length(3),
    total: Amount,
    line_items: z.array(z.looseObject({})),
    last_modified_time: Timestamp.optional(),
    updated_time: Timestamp.optional(),
    created_time: Timestamp.optional(),
  })
  .refine((r) => r.last_modified_time !== undefined || r.updated_time !== undefined, {
    message: 'a credit note needs last_modified_time or updated_time',
    path: ['updated_time'],
  });

const ZohoContactReplay = z.looseObject({
  contact_id: Id,
  contact_name: z.string(),
  contact_type: z.enum(['customer', 'vendor']).optional(),
  status: z.string().optional(),
  last_modified_time: Timestamp,
  created_time: Timestamp.optional(),
});

export const ZohoRecordsReplay = z.discriminatedUnion('entity', [
  z.strictObject({ entity: z.literal('invoices'), records: z.array(ZohoInvoiceReplay).min(1) }),
  z.strictObject({ entity: z.literal('creditnotes'), records: z.array(ZohoCreditNoteReplay).min(1) }),
  z.strictObject({ entity: z.literal('contacts'), records: z.array(ZohoContactReplay).min(1) }),
]);

const ZohoTaxReplay = z.looseObject({ tax_id: Id, tax_name: z.string(), tax_percentage: Amount, tax_type: z.string() });

/**
 * `GET /organizations/{id}`'s `organization`, `GET /settings/taxes`'s `taxes`, and each group's
 * `GET /settings/taxgroups/{id}` `tax_group` (https://www.zoho.com/books/api/v3/organizations/,
 * https://www.zoho.com/books/api/v3/taxes/).
 */
export const ZohoOrganisationReplay = z.strictObject({
  organization: z.looseObject({
    organization_id: z.union([z.string().regex(/^\d+$/, 'expected a numeric id'), z.number().int().nonnegative()]),
    name: z.string(),
    currency_code: z.string().length(3),
    time_zone: z.string().optional(),
  }),
  taxes: z.array(ZohoTaxReplay).optional(),
  tax_groups: z
    .array(z.looseObject({ tax_group_id: Id, tax_group_name: z.string(), taxes: z.array(ZohoTaxReplay) }))
    .optional(),
});
export type ZohoOrganisationReplay = z.infer<typeof ZohoOrganisationReplay>;

const ID_FIELD: Record<ZohoReplayEntity, string> = {
  invoices: 'invoice_id',
  creditnotes: 'creditnote_id',
  contacts: 'contact_id',
};

/** The keys of Zoho's list rows (a subset of the detail). */
const ROW_KEYS: Record<ZohoReplayEntity, readonly string[]> = {
  invoices: [
    'invoice_id',
    'ach_payment_initiated',
    'customer_name',
    'customer_id',
    'status',
    'invoice_number',
    'reference_number',
    'date',
    'due_date',
    'due_days',
    'currency_id',
    'currency_code',
    'is_viewed_by_client',
    'has_attachment',
    'client_viewed_time',
    'total',
    'balance',
    'created_time',
    'last_modified_time',
    'is_emailed',
    'reminders_sent',
    'last_reminder_sent_date',
    'payment_expected_date',
    'last_payment_date',
    'custom_fields',
    'documents',
    'location_id',
    'location_name',
    'salesperson_id',
    'salesperson_name',
    'shipping_charge',
    'adjustment',
    'write_off_amount',
    'exchange_rate',
  ],
  creditnotes: [
    'creditnote_id',
    'creditnote_number',
    'status',
    'reference_number',
    'date',
    'total',
    'balance',
    'customer_id',
    'customer_name',
    'currency_id',
    'currency_code',
    'exchange_rate',
    'is_emailed',
    'has_attachment',
    'created_time',
    'last_modified_time',
  ],
  contacts: [
    'contact_id',
    'contact_name',
    'customer_name',
    'vendor_name',
    'company_name',
    'contact_type',
    'customer_sub_type',
    'status',
    'payment_terms',
    'payment_terms_label',
    'currency_id',
    'currency_code',
    'outstanding_receivable_amount',
    'outstanding_receivable_amount_bcy',
    'unused_credits_receivable_amount',
    'unused_credits_receivable_amount_bcy',
    'first_name',
    'last_name',
    'email',
    'phone',
    'mobile',
    'website',
    'gst_no',
    'gst_treatment',
    'place_of_contact',
    'created_time',
    'last_modified_time',
  ],
};

export class ZohoReplayedRecords {
  private readonly maps: Record<ZohoReplayEntity, Map<string, ZohoRaw>> = {
    invoices: new Map(),
    creditnotes: new Map(),
    contacts: new Map(),
  };
  organisation: ZohoOrganisationReplay | undefined;
  /** Counts the changes (add, clear), so that lists built from these records know when to build again. */
  version = 0;

  /** Stores the records as given (validated by the caller); returns their ids. */
  add(entity: ZohoReplayEntity, records: readonly ZohoRaw[]): string[] {
    this.version += 1;
    return records.map((r) => {
      const id = String(r[ID_FIELD[entity]]);
      this.maps[entity].set(id, r);
      return id;
    });
  }

  all(entity: ZohoReplayEntity): ZohoRaw[] {
    return [...this.maps[entity].values()];
  }

  get(entity: ZohoReplayEntity, id: string): ZohoRaw | undefined {
    return this.maps[entity].get(id);
  }

  has(entity: ZohoReplayEntity, id: string): boolean {
    return this.maps[entity].has(id);
  }

  counts(): Record<ZohoReplayEntity, number> {
    return {
      invoices: this.maps.invoices.size,
      creditnotes: this.maps.creditnotes.size,
      contacts: this.maps.contacts.size,
    };
  }

  clear(): void {
    this.version += 1;
    for (const m of Object.values(this.maps)) m.clear();
    this.organisation = undefined;
  }
}

/** The list row Zoho prints for a detail: its row keys, and `last_modified_time` from `updated_time` where the detail has only that. */
export function replayedRow(entity: ZohoReplayEntity, raw: ZohoRaw): ZohoRaw {
  const row: ZohoRaw = {};
  for (const k of ROW_KEYS[entity]) if (raw[k] !== undefined) row[k] = raw[k];
  if (row.last_modified_time === undefined && raw.updated_time !== undefined) row.last_modified_time = raw.updated_time;
  if (entity === 'contacts' && row.customer_name === undefined && raw.contact_type !== 'vendor')
    row.customer_name = raw.contact_name;
  return row;
}

/** Epoch ms of a replayed record's last modification (its own timestamp, in its own offset). */
export function replayedModifiedMs(raw: ZohoRaw, offsetMinutes: number): number {
  const text = String(raw.last_modified_time ?? raw.updated_time ?? '');
  return parseZohoTimestamp(text, offsetMinutes) ?? 0;
}

export function replayedCreatedMs(raw: ZohoRaw, offsetMinutes: number): number {
  const text = raw.created_time === undefined ? undefined : String(raw.created_time);
  return (
    (text === undefined ? undefined : parseZohoTimestamp(text, offsetMinutes)) ?? replayedModifiedMs(raw, offsetMinutes)
  );
}

/** A decimal amount as printed (number or decimal string) → a number for sorting. */
export function amountOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

export function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
