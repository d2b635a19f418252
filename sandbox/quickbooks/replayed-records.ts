import { z } from 'zod';
import { parseQboInstant } from './qbo-time.js';

/**
 * Records replayed in QuickBooks Online's own JSON (`POST /__admin/records`, `POST /__admin/organisation`):
 * the object a read (`GET /v3/company/{realm}/invoice/{id}`) returns under its entity key, kept exactly
 * as given and served by the query language, the read by id and change data capture as QBO serves them,
 * by its own `Metadata.LastUpdatedTime`
 * (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice). Query rows
 * and reads are the whole entity in QBO, so there is no summary form. A replayed record replaces a
 * generated one with the same Id.
 *
 * Entity names are QBO's own: `Invoice`, `CreditMemo`, `Customer`.
 */
export const QBO_REPLAY_ENTITIES = ['Invoice', 'CreditMemo', 'Customer'] as const;
export type QboReplayEntity = (typeof QBO_REPLAY_ENTITIES)[number];
export type QboRaw = Record<string, unknown>;

const Instant = z
  .string()
  .refine((s) => parseQboInstant(s, 0) !== undefined, 'expected a date-time (2015-07-24T10:35:08-07:00)');
const DateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date (yyyy-mm-dd)');
const Ref = z.looseObject({ value: z.string().min(1), name: z.string().optional() });
const MetaData = z.looseObject({ CreateTime: Instant.optional(), LastUpdatedTime: Instant });

const Document = z.looseObject({
  Id: z.string().regex(/^\d+$/, 'expected a numeric string id'),
  SyncToken: z.string().optional(),
  DocNumber: z.string().optional(),
  TxnDate: DateText,
  CustomerRef: Ref,
  CurrencyRef: Ref.optional(),
  Line: z.array(z.looseObject({ DetailType: z.string(), Amount: z.number().optional() })).min(1),
  TotalAmt: z.number(),
  MetaData,
});

const Customer = z.looseObject({
  Id: z.string().regex(/^\d+$/, 'expected a numeric string id'),
  DisplayName: z.string().min(1),
  Active: z.boolean().optional(),
  MetaData,
});

export const QboRecordsReplay = z.discriminatedUnion('entity', [
  z.strictObject({ entity: z.literal('Invoice'), records: z.array(Document).min(1) }),
  z.strictObject({ entity: z.literal('CreditMemo'), records: z.array(Document).min(1) }),
  z.strictObject({ entity: z.literal('Customer'), records: z.array(Customer).min(1) }),
]);

/**
 * The company's settings as QBO returns them: `SELECT * FROM CompanyInfo`, `Preferences`, `TaxRate`,
 * `TaxCode` (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/companyinfo,
 * …/preferences, …/taxrate, …/taxcode). A replayed organisation replaces the generated company's settings
 * whole: what it leaves out has no rows.
 */
export const QboOrganisationReplay = z.strictObject({
  CompanyInfo: z.looseObject({ Id: z.string(), CompanyName: z.string(), Country: z.string().optional() }).optional(),
  Preferences: z
    .looseObject({ Id: z.string(), CurrencyPrefs: z.looseObject({ HomeCurrency: Ref }).optional() })
    .optional(),
  TaxRate: z.array(z.looseObject({ Id: z.string(), Name: z.string(), RateValue: z.number().optional() })).optional(),
  TaxCode: z.array(z.looseObject({ Id: z.string(), Name: z.string() })).optional(),
});
export type QboOrganisationReplay = z.infer<typeof QboOrganisationReplay>;

export class QboReplayedRecords {
  private readonly maps: Record<QboReplayEntity, Map<string, QboRaw>> = {
    Invoice: new Map(),
    CreditMemo: new Map(),
    Customer: new Map(),
  };
  organisation: QboOrganisationReplay = {};

  add(entity: QboReplayEntity, records: readonly QboRaw[]): string[] {
    return records.map((r) => {
      const id = String(r.Id);
      this.maps[entity].set(id, r);
      return id;
    });
  }

  all(entity: QboReplayEntity): QboRaw[] {
    return [...this.maps[entity].values()];
  }

  has(entity: QboReplayEntity, id: string): boolean {
    return this.maps[entity].has(id);
  }

  /**
   * A reference entity's replayed rows, or undefined when the generated company's apply. Once an
   * organisation is replayed it is the whole company: an entity it does not give has no rows (the
   * generated Indian company's tax rates never leak into a replayed US company).
   */
  reference(entity: string): QboRaw[] | undefined {
    const o = this.organisation;
    if (Object.keys(o).length === 0) return undefined;
    if (entity === 'CompanyInfo') return o.CompanyInfo ? [o.CompanyInfo] : [];
    if (entity === 'Preferences') return o.Preferences ? [o.Preferences] : [];
    if (entity === 'TaxRate') return o.TaxRate ?? [];
    if (entity === 'TaxCode') return o.TaxCode ?? [];
    return undefined;
  }

  clear(): void {
    for (const m of Object.values(this.maps)) m.clear();
    this.organisation = {};
  }
}

export function isReplayEntity(entity: string): entity is QboReplayEntity {
  return (QBO_REPLAY_ENTITIES as readonly string[]).includes(entity);
}

/** Epoch ms of a replayed record's MetaData.LastUpdatedTime (its own offset). */
export function replayedUpdatedMs(raw: QboRaw, offsetMinutes: number): number {
  const meta = raw.MetaData as { LastUpdatedTime?: string } | undefined;
  return (meta?.LastUpdatedTime === undefined ? undefined : parseQboInstant(meta.LastUpdatedTime, offsetMinutes)) ?? 0;
}
