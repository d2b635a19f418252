import { z } from 'zod';
import { parseMsDate } from './xero-date.js';

/**
 * Records replayed in Xero's own JSON (`POST /__admin/records`, `POST /__admin/organisation`): one
 * element of a `GET /Invoices/{id}` (`/CreditNotes/{id}`, `/Contacts/{id}`) response's collection, kept
 * exactly as given and served as Xero serves it — by id, in lists (without `LineItems` unless `page` is
 * given, https://developer.xero.com/documentation/api/accounting/invoices#get-invoices), filtered by
 * `If-Modified-Since` against the record's own `UpdatedDateUTC`, and by `where`. A replayed record
 * replaces a generated one with the same id.
 *
 * Entity names are Xero's collection names: `Invoices`, `CreditNotes`, `Contacts`.
 */
export const XERO_REPLAY_ENTITIES = ['Invoices', 'CreditNotes', 'Contacts'] as const;
export type XeroReplayEntity = (typeof XERO_REPLAY_ENTITIES)[number];
export type XeroRaw = Record<string, unknown>;

const Guid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a GUID');
const MsDate = z
  .string()
  .refine((s) => parseMsDate(s) !== undefined, 'expected a Xero date (/Date(1551981568133+0000)/)');
const ContactRef = z.looseObject({ ContactID: Guid, Name: z.string().optional() });

const Document = {
  Type: z.string(),
  Contact: ContactRef,
  Date: MsDate,
  Status: z.string().min(1),
  LineAmountTypes: z.enum(['Exclusive', 'Inclusive', 'NoTax']),
  LineItems: z.array(z.looseObject({})).optional(),
  SubTotal: z.number(),
  TotalTax: z.number(),
  Total: z.number(),
  CurrencyCode: z.string().length(3),
  UpdatedDateUTC: MsDate,
};

export const XeroRecordsReplay = z.discriminatedUnion('entity', [
  z.strictObject({
    tenantId: z.string().optional(),
    entity: z.literal('Invoices'),
    records: z.array(z.looseObject({ InvoiceID: Guid, InvoiceNumber: z.string().optional(), ...Document })).min(1),
  }),
  z.strictObject({
    tenantId: z.string().optional(),
    entity: z.literal('CreditNotes'),
    records: z
      .array(z.looseObject({ CreditNoteID: Guid, CreditNoteNumber: z.string().optional(), ...Document }))
      .min(1),
  }),
  z.strictObject({
    tenantId: z.string().optional(),
    entity: z.literal('Contacts'),
    records: z
      .array(
        z.looseObject({
          ContactID: Guid,
          Name: z.string().min(1),
          ContactStatus: z.string().optional(),
          UpdatedDateUTC: MsDate,
        }),
      )
      .min(1),
  }),
]);

/**
 * `GET /Organisation`'s `Organisations[0]` and `GET /TaxRates`'s `TaxRates`
 * (https://developer.xero.com/documentation/api/accounting/organisation,
 * https://developer.xero.com/documentation/api/accounting/taxrates), replacing the organisation's own.
 */
export const XeroOrganisationReplay = z.strictObject({
  tenantId: z.string().optional(),
  Organisation: z.looseObject({
    Name: z.string(),
    BaseCurrency: z.string().length(3),
    CountryCode: z.string().length(2).optional(),
  }),
  TaxRates: z
    .array(
      z.looseObject({
        TaxType: z.string(),
        Name: z.string(),
        EffectiveRate: z.number().optional(),
        TaxComponents: z.array(z.looseObject({})).optional(),
      }),
    )
    .optional(),
});
export type XeroOrganisationReplay = z.infer<typeof XeroOrganisationReplay>;

export const ID_FIELD: Record<XeroReplayEntity, 'InvoiceID' | 'CreditNoteID' | 'ContactID'> = {
  Invoices: 'InvoiceID',
  CreditNotes: 'CreditNoteID',
  Contacts: 'ContactID',
};
