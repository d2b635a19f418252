import { CreditNoteUpsertBody, type CreditNoteInput } from '../../../src/billing/schemas/index.js';
import type { Router } from '../../kit/router.js';
import type { BillingStore, CompanyState, StoredInvoice } from '../billing-store.js';
import { badRequest, guarded } from '../errors.js';
import { dec, round2 } from '../../kit/minor-units.js';
import { emptyOk } from '../responses.js';
import { sameContent } from '../same-content.js';
import { parseBody } from '../validate.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Endpoint 2 (POST /external/creditNotes/upsert), body `{creditNote: {...}}` (A19).
 *
 * A20: credit notes are stored per company by creditNoteId (a second upsert replaces). Each entry of
 * `appliedToInvoices` names an invoice of the same company by invoiceId or invoiceNumber (invoiceId
 * wins when both are given); the sum applied to an invoice by all credit notes is that invoice's
 * `creditNoteAdjustedAmount` (invoiceAdjustedAmount is untouched — the invoice upsert owns it). An
 * application whose invoice is unknown (or deleted) → 400 naming `creditNote.appliedToInvoices.N`,
 * and nothing is stored. A change of an invoice's creditNoteAdjustedAmount moves its updatedAt.
 */
function resolveApplications(company: CompanyState, input: CreditNoteInput): Map<StoredInvoice, number> {
  const totals = new Map<StoredInvoice, ReturnType<typeof dec>>();
  (input.appliedToInvoices ?? []).forEach((a, i) => {
    const byId = a.invoiceId !== undefined ? company.invoiceById.get(a.invoiceId) : undefined;
    const inv =
      a.invoiceId !== undefined
        ? byId && byId.lifecycleStatus !== 'DELETED'
          ? byId
          : undefined
        : company.invoiceByNumberLive(a.invoiceNumber!);
    if (!inv) {
      const which = a.invoiceId !== undefined ? `invoiceId ${a.invoiceId}` : `invoiceNumber ${a.invoiceNumber}`;
      throw badRequest(`creditNote.appliedToInvoices.${i}: unknown invoice (${which})`);
    }
    totals.set(inv, (totals.get(inv) ?? dec(0)).plus(a.amount));
  });
  return new Map([...totals].map(([inv, d]) => [inv, round2(d)]));
}

export function applyCreditNoteUpsert(store: BillingStore, companyId: string, input: CreditNoteInput): void {
  const company = store.company(companyId);
  const now = store.clock.now();
  const applied = resolveApplications(company, input);
  let note = company.creditNotes.get(input.creditNoteId);
  if (!note) {
    note = { id: store.nextId('cn'), input, createdAtMs: now, updatedAtMs: now, applied: new Map(), attachments: [] };
    company.creditNotes.set(input.creditNoteId, note);
  } else if (!sameContent(note.input, input)) {
    if (company.creditNoteByNumber.get(note.input.creditNoteNumber) === note)
      company.creditNoteByNumber.delete(note.input.creditNoteNumber);
    note.input = input;
    note.updatedAtMs = now;
  }
  company.creditNoteByNumber.set(input.creditNoteNumber, note);
  for (const inv of note.applied.keys())
    if (!applied.has(inv)) company.applyCreditNote(inv, input.creditNoteId, undefined, now);
  for (const [inv, amount] of applied) company.applyCreditNote(inv, input.creditNoteId, amount, now);
  note.applied = applied;
}

export function registerCreditNoteRoutes(router: Router, { store, keys }: RouteDeps): void {
  router.on(
    'POST',
    '/external/creditNotes/upsert',
    guarded((ctx) => {
      const companyId = keys.authenticate(ctx.headers, 'service');
      const { creditNote } = parseBody(CreditNoteUpsertBody, ctx.body);
      applyCreditNoteUpsert(store, companyId, creditNote);
      return emptyOk();
    }),
  );
}
