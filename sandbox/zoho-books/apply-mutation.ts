import { buildCreditNote, creditLine } from './build-credit-note.js';
import { buildInvoice } from './build-invoice.js';
import { computeDocumentAmounts } from './compute-document-amounts.js';
import type { ZohoDataset } from './generate-data.js';
import { creditNoteBalanceMinor, creditNoteNumber } from './generate-credit-notes.js';
import { invoiceNumber } from './generate-invoices.js';
import { deriveInvoiceStatus, invoiceBalanceMinor } from './invoice-status.js';
import { roundToMinor, toAmount } from '../kit/minor-units.js';
import type { ContactRecord, CreditNoteRecord, InvoiceRecord } from './store-records.js';
import { formatZohoDate, formatZohoTimestamp } from './zoho-timestamp.js';
import { MutationError, type InvoiceChanges, type ZohoMutation, type ZohoMutationResult } from './zoho-mutation.js';

/** The store internals a mutation may change. */
export interface MutationTarget {
  readonly data: ZohoDataset;
  readonly invoiceMap: Map<string, InvoiceRecord>;
  readonly creditNoteMap: Map<string, CreditNoteRecord>;
  readonly contactMap: Map<string, ContactRecord>;
  creditsAppliedMinor(invoiceId: string): number;
  refreshCredits(): void;
  /** Called before a record is changed, created or deleted, so a failed batch can be rolled back. */
  remember(kind: RecordKind, id: string): void;
}

export type RecordKind = 'invoice' | 'creditnote' | 'contact';

type Op<K extends ZohoMutation['op']> = Extract<ZohoMutation, { op: K }>;

const stamp = (t: MutationTarget, ms: number): string => formatZohoTimestamp(ms, t.data.organization.offsetMinutes);
const today = (t: MutationTarget, ms: number): string => formatZohoDate(ms, t.data.organization.offsetMinutes);

/** The record about to be changed (remembered for rollback), or 404. */
function invoiceOf(t: MutationTarget, id: string): InvoiceRecord {
  const inv = t.invoiceMap.get(id);
  if (!inv) throw new MutationError(`Invoice ${id} does not exist.`, 404);
  t.remember('invoice', id);
  return inv;
}

function creditNoteOf(t: MutationTarget, id: string): CreditNoteRecord {
  const cn = t.creditNoteMap.get(id);
  if (!cn) throw new MutationError(`Credit note ${id} does not exist.`, 404);
  t.remember('creditnote', id);
  return cn;
}

function contactOf(t: MutationTarget, id: string): ContactRecord {
  const c = t.contactMap.get(id);
  if (!c) throw new MutationError(`Contact ${id} does not exist.`, 404);
  t.remember('contact', id);
  return c;
}

function restatus(t: MutationTarget, inv: InvoiceRecord, now: number): void {
  t.refreshCredits();
  inv.status = deriveInvoiceStatus(inv, t.creditsAppliedMinor(inv.invoice_id), today(t, now));
}

function nextNumber(existing: Iterable<string>, pattern: RegExp): number {
  let max = 0;
  for (const n of existing) max = Math.max(max, Number(pattern.exec(n)?.[1] ?? 0));
  return max + 1;
}

/** Removes every credit applied to an invoice; the credit notes reopen and are bumped. */
function unapplyCredits(t: MutationTarget, invoiceId: string, now: number): void {
  for (const cn of t.creditNoteMap.values()) {
    if (!cn.applications.some((a) => a.invoice_id === invoiceId)) continue;
    t.remember('creditnote', cn.creditnote_id);
    cn.applications = cn.applications.filter((a) => a.invoice_id !== invoiceId);
    if (cn.status === 'closed') cn.status = 'open';
    cn.modifiedMs = now;
  }
  t.refreshCredits();
}

function guardMoney(
  t: MutationTarget,
  inv: InvoiceRecord,
  force: boolean | undefined,
  action: string,
  now: number,
): void {
  const hasMoney = inv.payments.length > 0 || inv.writeOffMinor > 0 || t.creditsAppliedMinor(inv.invoice_id) > 0;
  if (!hasMoney) return;
  if (!force)
    throw new MutationError(
      `Invoice ${inv.invoice_number} has payments or credits applied and cannot be ${action}; pass force to remove them first.`,
    );
  inv.payments = [];
  inv.writeOffMinor = 0;
  unapplyCredits(t, inv.invoice_id, now);
}

function editInvoice(t: MutationTarget, op: Op<'edit_invoice'>, now: number): ZohoMutationResult {
  const inv = invoiceOf(t, op.invoice_id);
  if (inv.status === 'void') throw new MutationError(`Invoice ${inv.invoice_number} is void and cannot be edited.`);
  const first = inv.lines[0];
  const changes: InvoiceChanges = op.changes ?? {
    lines: [{ index: 0, quantity: ((first?.quantityHundredths ?? 0) + 100) / 100 }],
  };
  if (changes.reference_number !== undefined) inv.reference_number = changes.reference_number;
  if (changes.notes !== undefined) inv.notes = changes.notes;
  if (changes.due_date !== undefined) inv.due_date = changes.due_date;
  for (const change of changes.lines ?? []) {
    const line =
      change.line_item_id !== undefined
        ? inv.lines.find((l) => l.line_item_id === change.line_item_id)
        : inv.lines[change.index ?? 0];
    if (!line)
      throw new MutationError(
        `Invoice ${inv.invoice_number} has no line ${change.line_item_id ?? change.index ?? 0}.`,
        404,
      );
    if (change.quantity !== undefined) line.quantityHundredths = roundToMinor(change.quantity);
    if (change.rate !== undefined) line.rateMinor = roundToMinor(change.rate);
  }
  if (changes.add_line) {
    const itemId = changes.add_line.item_id ?? first?.item_id;
    const item = t.data.items.find((i) => i.item_id === itemId);
    if (!item) throw new MutationError(`Item ${itemId ?? ''} does not exist.`, 404);
    const intra = inv.place_of_supply === t.data.organization.state_code;
    const zeroRated = first?.tax_id === '';
    inv.lines.push({
      line_item_id: t.data.transactionIds.take(),
      item_id: item.item_id,
      name: item.name,
      description: item.descriptions[0] ?? '',
      item_order: inv.lines.length + 1,
      hsn_or_sac: item.hsn_or_sac,
      product_type: item.product_type,
      unit: item.unit,
      quantityHundredths: roundToMinor(changes.add_line.quantity),
      rateMinor: roundToMinor(changes.add_line.rate),
      discount: null,
      tax_id: zeroRated ? '' : t.data.taxes.forSupply(item.slab, intra).tax_id,
    });
  }
  if (changes.shipping_charge !== undefined) inv.shippingMinor = roundToMinor(changes.shipping_charge);
  if (changes.adjustment !== undefined) inv.adjustmentMinor = roundToMinor(changes.adjustment);
  if (changes.adjustment_description !== undefined) inv.adjustment_description = changes.adjustment_description;
  if (changes.mark_as_sent && inv.status === 'draft') inv.status = 'sent';
  if (changes.mark_as_draft && inv.status !== 'draft') {
    if (inv.payments.length > 0 || inv.writeOffMinor > 0 || t.creditsAppliedMinor(inv.invoice_id) > 0)
      throw new MutationError(
        `Invoice ${inv.invoice_number} has payments or credits and cannot be converted to draft.`,
      );
    inv.status = 'draft';
  }
  inv.amounts = computeDocumentAmounts(inv, t.data.taxes);
  if (inv.amounts.totalMinor <= 0) throw new MutationError(`Invoice ${inv.invoice_number} total must stay positive.`);
  if (invoiceBalanceMinor(inv, t.creditsAppliedMinor(inv.invoice_id)) < 0)
    throw new MutationError(
      `Invoice ${inv.invoice_number} total cannot be less than the amount already paid or credited.`,
    );
  restatus(t, inv, now);
  inv.modifiedMs = now;
  return { op: op.op, id: inv.invoice_id, last_modified_time: stamp(t, now) };
}

function createInvoice(t: MutationTarget, op: Op<'create_invoice'>, now: number): ZohoMutationResult {
  const customers = [...t.contactMap.values()].filter((c) => c.contact_type === 'customer' && c.status === 'active');
  const customer =
    op.customer_id !== undefined
      ? contactOf(t, op.customer_id)
      : customers.length
        ? t.data.random.pick(customers)
        : undefined;
  if (!customer || customer.contact_type !== 'customer')
    throw new MutationError('create_invoice needs a customer contact.');
  const number = invoiceNumber(
    nextNumber(
      [...t.invoiceMap.values()].map((i) => i.invoice_number),
      /^INV-(\d+)$/,
    ),
  );
  const inv = buildInvoice(t.data, t.data.random, customer, {
    invoiceNumber: number,
    createdMs: now,
    lineCount: op.line_count,
    discount: op.discount,
    draft: op.draft,
  });
  t.remember('invoice', inv.invoice_id);
  t.invoiceMap.set(inv.invoice_id, inv);
  restatus(t, inv, now);
  return { op: op.op, id: inv.invoice_id, last_modified_time: stamp(t, now), number };
}

function voidInvoice(t: MutationTarget, op: Op<'void_invoice'>, now: number): ZohoMutationResult {
  const inv = invoiceOf(t, op.invoice_id);
  if (inv.status === 'void') throw new MutationError(`Invoice ${inv.invoice_number} is already void.`);
  guardMoney(t, inv, op.force, 'voided', now);
  inv.status = 'void';
  inv.modifiedMs = now;
  return { op: op.op, id: inv.invoice_id, last_modified_time: stamp(t, now) };
}

function deleteInvoice(t: MutationTarget, op: Op<'delete_invoice'>, now: number): ZohoMutationResult {
  const inv = invoiceOf(t, op.invoice_id);
  guardMoney(t, inv, op.force, 'deleted', now);
  t.invoiceMap.delete(inv.invoice_id);
  return { op: op.op, id: inv.invoice_id, last_modified_time: null };
}

function recordPayment(t: MutationTarget, op: Op<'record_payment'>, now: number): ZohoMutationResult {
  const inv = invoiceOf(t, op.invoice_id);
  if (inv.status === 'draft' || inv.status === 'void')
    throw new MutationError(`Invoice ${inv.invoice_number} is ${inv.status}; payments need a posted invoice.`);
  const balance = invoiceBalanceMinor(inv, t.creditsAppliedMinor(inv.invoice_id));
  const amount = op.amount !== undefined ? roundToMinor(op.amount) : balance;
  if (balance <= 0) throw new MutationError(`Invoice ${inv.invoice_number} is already paid.`);
  if (amount <= 0 || amount > balance)
    throw new MutationError(`Payment amount must be between 0.01 and ${toAmount(balance)}.`);
  inv.payments.push({ payment_id: t.data.transactionIds.take(), date: op.date ?? today(t, now), amountMinor: amount });
  restatus(t, inv, now);
  inv.modifiedMs = now;
  return { op: op.op, id: inv.invoice_id, last_modified_time: stamp(t, now) };
}

function createCreditNote(t: MutationTarget, op: Op<'create_credit_note'>, now: number): ZohoMutationResult {
  const inv = invoiceOf(t, op.invoice_id);
  const first = inv.lines[0];
  if (inv.status === 'draft' || inv.status === 'void' || !first)
    throw new MutationError(`Invoice ${inv.invoice_number} is ${inv.status}; credit notes need a posted invoice.`);
  const number = creditNoteNumber(
    nextNumber(
      [...t.creditNoteMap.values()].map((c) => c.creditnote_number),
      /^CN-(\d+)$/,
    ),
  );
  const line = creditLine(t.data, inv, first, Math.min(100, first.quantityHundredths), 1);
  const cn = buildCreditNote(t.data, inv, [line], now, number, 'Goods returned');
  const amount =
    op.apply === false
      ? 0
      : Math.min(cn.amounts.totalMinor, invoiceBalanceMinor(inv, t.creditsAppliedMinor(inv.invoice_id)));
  if (amount > 0) {
    cn.applications.push({
      invoice_id: inv.invoice_id,
      invoice_number: inv.invoice_number,
      date: cn.date,
      amountMinor: amount,
    });
    inv.modifiedMs = now;
  }
  if (creditNoteBalanceMinor(cn) === 0) cn.status = 'closed';
  t.remember('creditnote', cn.creditnote_id);
  t.creditNoteMap.set(cn.creditnote_id, cn);
  restatus(t, inv, now);
  return { op: op.op, id: cn.creditnote_id, last_modified_time: stamp(t, now), number };
}

/** Void or delete a credit note; applied credit comes off the invoices first (only with force). */
function retireCreditNote(
  t: MutationTarget,
  op: Op<'void_credit_note'> | Op<'delete_credit_note'>,
  now: number,
): ZohoMutationResult {
  const cn = creditNoteOf(t, op.creditnote_id);
  if (op.op === 'void_credit_note' && cn.status === 'void')
    throw new MutationError(`Credit note ${cn.creditnote_number} is already void.`);
  if (cn.applications.length > 0) {
    if (!op.force)
      throw new MutationError(
        `Credit note ${cn.creditnote_number} is applied to invoices; pass force to unapply it first.`,
      );
    const touched = cn.applications.map((a) => a.invoice_id);
    cn.applications = [];
    for (const id of touched) {
      const inv = t.invoiceMap.get(id);
      if (!inv) continue;
      t.remember('invoice', id);
      restatus(t, inv, now);
      inv.modifiedMs = now;
    }
  }
  if (op.op === 'delete_credit_note') {
    t.creditNoteMap.delete(cn.creditnote_id);
    t.refreshCredits();
    return { op: op.op, id: cn.creditnote_id, last_modified_time: null };
  }
  cn.status = 'void';
  cn.modifiedMs = now;
  t.refreshCredits();
  return { op: op.op, id: cn.creditnote_id, last_modified_time: stamp(t, now) };
}

function editContact(t: MutationTarget, op: Op<'edit_contact'>, now: number): ZohoMutationResult {
  const c = contactOf(t, op.contact_id);
  const changes = op.changes ?? { notes: `Updated ${stamp(t, now)}` };
  const primary = c.contact_persons.find((p) => p.is_primary_contact);
  if (changes.contact_name !== undefined) {
    c.contact_name = changes.contact_name;
    if (c.company_name) c.company_name = changes.contact_name;
  }
  if (changes.email !== undefined && primary) primary.email = changes.email;
  if (changes.phone !== undefined && primary) primary.phone = changes.phone;
  if (changes.status !== undefined) c.status = changes.status;
  if (changes.notes !== undefined) c.notes = changes.notes;
  c.modifiedMs = now;
  return { op: op.op, id: c.contact_id, last_modified_time: stamp(t, now) };
}

function deleteContact(t: MutationTarget, op: Op<'delete_contact'>): ZohoMutationResult {
  const c = contactOf(t, op.contact_id);
  const used =
    [...t.invoiceMap.values()].some((i) => i.customer_id === c.contact_id) ||
    [...t.creditNoteMap.values()].some((n) => n.customer_id === c.contact_id);
  if (used) throw new MutationError(`Contact ${c.contact_name} has transactions and cannot be deleted.`);
  t.contactMap.delete(c.contact_id);
  return { op: op.op, id: c.contact_id, last_modified_time: null };
}

function touch(t: MutationTarget, op: Op<'touch'>, now: number): ZohoMutationResult {
  const record =
    op.entity === 'invoice'
      ? invoiceOf(t, op.id)
      : op.entity === 'creditnote'
        ? creditNoteOf(t, op.id)
        : contactOf(t, op.id);
  record.modifiedMs = now;
  return { op: op.op, id: op.id, last_modified_time: stamp(t, now) };
}

/** Applies one op at instant `now` (whole seconds). Throws MutationError for what Zoho would refuse. */
export function applyMutation(t: MutationTarget, op: ZohoMutation, now: number): ZohoMutationResult {
  switch (op.op) {
    case 'edit_invoice':
      return editInvoice(t, op, now);
    case 'create_invoice':
      return createInvoice(t, op, now);
    case 'void_invoice':
      return voidInvoice(t, op, now);
    case 'delete_invoice':
      return deleteInvoice(t, op, now);
    case 'record_payment':
      return recordPayment(t, op, now);
    case 'create_credit_note':
      return createCreditNote(t, op, now);
    case 'void_credit_note':
    case 'delete_credit_note':
      return retireCreditNote(t, op, now);
    case 'edit_contact':
      return editContact(t, op, now);
    case 'delete_contact':
      return deleteContact(t, op);
    case 'touch':
      return touch(t, op, now);
  }
}
