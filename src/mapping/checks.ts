import type { z } from 'zod';
import { CreditNoteInput, type CreditNoteInputDraft } from '../billing/schemas/credit-note.js';
import { CustomerDetails, type CustomerDetailsInput } from '../billing/schemas/customer.js';
import { InvoiceInput, type InvoiceInputDraft } from '../billing/schemas/invoice.js';
import { formatZodIssues } from '../errors/format-zod-issues.js';
import { formatMoney, minorUnit, Money, sumMoney, ZERO, type Decimal } from './money.js';
import { mapFail, mapOk, type MapFailure, type MapResult } from './quarantine-reason.js';

/**
 * Consistency checks a mapper runs on the vendor's own figures before sending them (README, "Money is exact"):
 * a record whose parts do not add up within the currency's rounding is quarantined as
 * AMOUNTS_INCONSISTENT, with a message that shows the figures, rather than synced with numbers that
 * contradict each other.
 *
 * Each check returns a MapFailure or undefined, so a mapper chains them:
 *   const bad = checkLinesSum(...) ?? checkInvoiceTotal(...) ?? checkPaidWithinTotal(...);
 *   if (bad) return bad;
 *
 * Tolerance is in minor units of the currency, default 1: vendors round tax per line or per component
 * and total the rounded figures, so a one-paisa gap between "recomputed" and "reported" is normal;
 * anything more is a real inconsistency.
 */
export const DEFAULT_TOLERANCE_MINOR_UNITS = 1;

function within(a: Decimal, b: Decimal, currency: string, toleranceMinorUnits: number): boolean {
  return a.minus(b).abs().lte(minorUnit(currency).times(toleranceMinorUnits));
}

/** The lines' subtotals add up to the document's subtotal. */
export function checkLinesSum(input: {
  lineSubtotals: readonly Decimal[];
  subtotal: Decimal;
  currency: string;
  toleranceMinorUnits?: number;
  field?: string;
}): MapFailure | undefined {
  const { currency } = input;
  const sum = sumMoney(input.lineSubtotals);
  if (within(sum, input.subtotal, currency, input.toleranceMinorUnits ?? DEFAULT_TOLERANCE_MINOR_UNITS))
    return undefined;
  return mapFail(
    'AMOUNTS_INCONSISTENT',
    `${input.lineSubtotals.length} line(s) add up to ${formatMoney(sum, currency)} but the subtotal is ` +
      `${formatMoney(input.subtotal, currency)} ${currency} (difference ${formatMoney(sum.minus(input.subtotal), currency)})`,
    { field: input.field ?? 'subtotal' },
  );
}

/** Tax components (Zoho `taxes[]`, QuickBooks `TaxLine[]`) add up to the document's tax total. */
export function checkTaxSum(input: {
  components: readonly Decimal[];
  taxTotal: Decimal;
  currency: string;
  toleranceMinorUnits?: number;
}): MapFailure | undefined {
  const { currency } = input;
  const sum = sumMoney(input.components);
  if (within(sum, input.taxTotal, currency, input.toleranceMinorUnits ?? DEFAULT_TOLERANCE_MINOR_UNITS))
    return undefined;
  return mapFail(
    'AMOUNTS_INCONSISTENT',
    `tax components add up to ${formatMoney(sum, currency)} but the tax total is ${formatMoney(input.taxTotal, currency)} ${currency}`,
    { field: 'tax' },
  );
}

export interface TotalParts {
  subtotal: Decimal;
  /** Entity-level discount only: item discounts are already inside the subtotal. Positive. */
  discount?: Decimal;
  tax?: Decimal;
  /** Signed extras: shipping, adjustments, other charges. */
  adjustments?: readonly Decimal[];
  /** Signed round-off (Zoho `roundoff_value`). */
  rounding?: Decimal;
  total: Decimal;
  currency: string;
  toleranceMinorUnits?: number;
}

/** subtotal − discount + tax + adjustments + rounding = total, within tolerance. */
export function checkInvoiceTotal(parts: TotalParts): MapFailure | undefined {
  const { currency } = parts;
  const discount = parts.discount ?? ZERO;
  const tax = parts.tax ?? ZERO;
  const adjustments = sumMoney(parts.adjustments ?? []);
  const rounding = parts.rounding ?? ZERO;
  const computed = new Money(parts.subtotal).minus(discount).plus(tax).plus(adjustments).plus(rounding);
  if (within(computed, parts.total, currency, parts.toleranceMinorUnits ?? DEFAULT_TOLERANCE_MINOR_UNITS))
    return undefined;
  const f = (d: Decimal) => formatMoney(d, currency);
  return mapFail(
    'AMOUNTS_INCONSISTENT',
    `subtotal ${f(parts.subtotal)} − discount ${f(discount)} + tax ${f(tax)} + adjustments ${f(adjustments)} + ` +
      `rounding ${f(rounding)} = ${f(computed)}, but the total is ${f(parts.total)} ${currency} ` +
      `(difference ${f(computed.minus(parts.total))})`,
    { field: 'total' },
  );
}

/** 0 ≤ paid ≤ total (a payment larger than the document is an overpayment the ERP records elsewhere). */
export function checkPaidWithinTotal(input: {
  paid: Decimal;
  total: Decimal;
  currency: string;
  toleranceMinorUnits?: number;
}): MapFailure | undefined {
  const { paid, total, currency } = input;
  const f = (d: Decimal) => formatMoney(d, currency);
  if (paid.isNegative() && !paid.isZero()) {
    return mapFail('AMOUNTS_INCONSISTENT', `paid amount ${f(paid)} ${currency} is negative`, { field: 'paid' });
  }
  const slack = minorUnit(currency).times(input.toleranceMinorUnits ?? DEFAULT_TOLERANCE_MINOR_UNITS);
  if (paid.minus(total).gt(slack)) {
    return mapFail('AMOUNTS_INCONSISTENT', `paid amount ${f(paid)} exceeds the total ${f(total)} ${currency}`, {
      field: 'paid',
    });
  }
  return undefined;
}

/** total − paid − credits − write-off = balance (Zoho `balance`, QuickBooks `Balance`, Xero `AmountDue`). */
export function checkBalance(input: {
  total: Decimal;
  paid: Decimal;
  credited?: Decimal;
  writtenOff?: Decimal;
  /** Tax the customer withheld at source and the vendor counts as settled (Zoho `tax_amount_withheld`). */
  withheld?: Decimal;
  balance: Decimal;
  currency: string;
  toleranceMinorUnits?: number;
}): MapFailure | undefined {
  const { currency } = input;
  const credited = input.credited ?? ZERO;
  const writtenOff = input.writtenOff ?? ZERO;
  const withheld = input.withheld ?? ZERO;
  const computed = new Money(input.total).minus(input.paid).minus(credited).minus(writtenOff).minus(withheld);
  if (within(computed, input.balance, currency, input.toleranceMinorUnits ?? DEFAULT_TOLERANCE_MINOR_UNITS))
    return undefined;
  const f = (d: Decimal) => formatMoney(d, currency);
  const tds = withheld.isZero() ? '' : ` − TDS withheld ${f(withheld)}`;
  return mapFail(
    'AMOUNTS_INCONSISTENT',
    `total ${f(input.total)} − paid ${f(input.paid)} − credited ${f(credited)} − written off ${f(writtenOff)}${tds} = ` +
      `${f(computed)}, but the balance is ${f(input.balance)} ${currency}`,
    { field: 'balance' },
  );
}

/** A named amount is not negative (totals, subtotals, line amounts on documents that cannot be negative). */
export function checkNonNegative(amount: Decimal, field: string, currency: string): MapFailure | undefined {
  if (!amount.isNegative() || amount.isZero()) return undefined;
  return mapFail('AMOUNTS_INCONSISTENT', `${field} ${formatMoney(amount, currency)} ${currency} is negative`, {
    field,
  });
}

/**
 * Fields the interface defaults where the default can contradict the source (docs/interface-assumptions.md,
 * "Fields the interface defaults"): a body's parse fills them, so a mapper that forgot one would send
 * billing's default (India, rupees, "created by hand", origin OTHER) as if the ERP had said so. Every
 * mapper sets them; one filled by the schema instead is reported as a warning, never silently.
 */
const CUSTOMER_DEFAULTS = ['countryCode', 'currency', 'isManuallyCreated'] as const;
const SOURCE_DEFAULTS: Record<string, readonly string[]> = {
  invoice: [
    'invoiceCurrency',
    'invoiceOriginSource',
    'invoiceTotal',
    'invoicePaidAmount',
    'invoiceAdjustedAmount',
    ...CUSTOMER_DEFAULTS.map((f) => `customerDetails.${f}`),
  ],
  creditNote: [
    'creditNoteCurrency',
    'creditNoteOriginSource',
    'creditNoteTotal',
    ...CUSTOMER_DEFAULTS.map((f) => `customerDetails.${f}`),
  ],
  customer: CUSTOMER_DEFAULTS,
};

/** The paths (dotted) the draft leaves out, under an object it has, that the parsed value holds. */
function defaultedBySchema(
  draft: unknown,
  parsed: unknown,
  paths: readonly string[],
): Array<{ path: string; value: unknown }> {
  const at = (root: unknown, keys: readonly string[]): { parent: unknown; value: unknown } => {
    let parent: unknown = undefined;
    let value: unknown = root;
    for (const k of keys) {
      parent = value;
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[k] : undefined;
    }
    return { parent, value };
  };
  return paths.flatMap((path) => {
    const keys = path.split('.');
    const sent = at(draft, keys);
    if (sent.parent === null || typeof sent.parent !== 'object' || sent.value !== undefined) return [];
    const filled = at(parsed, keys).value;
    return filled === undefined ? [] : [{ path, value: filled }];
  });
}

/**
 * Runs a billing zod schema over a mapped draft. Failures become SCHEMA_INVALID with every issue as
 * "path: message" (paths and messages only, never values: records hold personal and financial data).
 * Success returns the parsed value, defaults applied, and carries the mapper's warnings along, plus one
 * for each source-dependent default the schema had to fill (SOURCE_DEFAULTS).
 */
function finalize<S extends z.ZodType>(
  schema: S,
  draft: z.input<S>,
  label: string,
  warnings?: readonly string[],
): MapResult<z.output<S>> {
  const parsed = schema.safeParse(draft);
  if (parsed.success) {
    const defaulted = defaultedBySchema(draft, parsed.data, SOURCE_DEFAULTS[label] ?? []).map(
      ({ path, value }) =>
        `${label}.${path} not set from the source: billing's default ${JSON.stringify(value)} applies`,
    );
    return mapOk(parsed.data, defaulted.length > 0 ? [...(warnings ?? []), ...defaulted] : warnings);
  }
  const issues = formatZodIssues(parsed.error, label);
  const field = parsed.error.issues[0]?.path.map(String).join('.') || undefined;
  return mapFail('SCHEMA_INVALID', `${label} failed the billing schema: ${issues.join('; ')}`, {
    issues,
    ...(field === undefined ? {} : { field: `${label}.${field}` }),
  });
}

/** The mapped invoice through `InvoiceInput` (the upsert body's `invoice`). */
export function finalizeInvoice(draft: InvoiceInputDraft, warnings?: readonly string[]): MapResult<InvoiceInput> {
  return finalize(InvoiceInput, draft, 'invoice', warnings);
}

/** The mapped credit note through `CreditNoteInput` (the upsert body's `creditNote`). */
export function finalizeCreditNote(
  draft: CreditNoteInputDraft,
  warnings?: readonly string[],
): MapResult<CreditNoteInput> {
  return finalize(CreditNoteInput, draft, 'creditNote', warnings);
}

/** The mapped customer through `CustomerDetails` (the customer-create body). */
export function finalizeCustomer(
  draft: CustomerDetailsInput,
  warnings?: readonly string[],
): MapResult<CustomerDetails> {
  return finalize(CustomerDetails, draft, 'customer', warnings);
}
