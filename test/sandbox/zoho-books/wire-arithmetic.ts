/**
 * An independent re-computation of Zoho invoice / credit-note arithmetic from the WIRE JSON, in integer
 * paise with BigInt, used to check every generated record. Returns the problems found (empty = consistent).
 */
type Json = Record<string, unknown>;

export interface TaxInfo {
  tax_id: string;
  tax_name: string;
  basisPoints: number;
  tax_type: string;
  tax_specific_type: string;
  components: string[];
}

const AMOUNT = /^-?\d+(\.\d{1,2})?$/;

/** JSON number with at most 2 decimals → paise. */
export function paise(value: unknown, where: string, problems: string[]): bigint {
  if (typeof value !== 'number' || !AMOUNT.test(String(value))) {
    problems.push(`${where}: not an amount with ≤2 decimals: ${JSON.stringify(value)}`);
    return 0n;
  }
  const [whole = '0', frac = ''] = String(value).replace('-', '').split('.');
  const p = BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
  return String(value).startsWith('-') ? -p : p;
}

/** Half away from zero. */
export function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (a * 2n + d) / (2n * d);
  return neg ? -q : q;
}

function hundredths(value: unknown): bigint {
  return BigInt(Math.round(Number(value) * 100));
}

function percentBp(text: string): bigint {
  return BigInt(Math.round(Number(text.replace('%', '')) * 100));
}

/** Largest-remainder split of `total` by weights (the documented rule for before-tax entity discounts). */
function allocate(total: bigint, weights: bigint[]): bigint[] {
  const sum = weights.reduce((s, w) => s + w, 0n);
  if (sum <= 0n) return weights.map((_, i) => (i === 0 ? total : 0n));
  const parts = weights.map((w) => (total * w) / sum);
  let rest = total - parts.reduce((s, p) => s + p, 0n);
  const order = weights
    .map((w, i) => ({ i, r: (total * w) % sum }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) {
    if (rest <= 0n) break;
    parts[i] = (parts[i] ?? 0n) + 1n;
    rest -= 1n;
  }
  return parts;
}

/** Checks lines, discounts, taxes, totals and bcy amounts; returns problems and the computed total. */
export function checkDocument(
  doc: Json,
  taxes: Map<string, TaxInfo>,
  label: string,
): { problems: string[]; total: bigint } {
  const problems: string[] = [];
  const p = (v: unknown, w: string) => paise(v, `${label}.${w}`, problems);
  const lines = (doc.line_items as Json[] | undefined) ?? [];
  if (lines.length === 0) problems.push(`${label}: no line_items`);
  const itemLevel = doc.discount_type !== 'entity_level';
  const itemTotals: bigint[] = [];
  lines.forEach((line, i) => {
    const gross2 = hundredths(line.quantity) * p(line.rate, `line${i}.rate`);
    if (gross2 % 100n !== 0n) problems.push(`${label}.line${i}: quantity × rate is not whole paise`);
    const gross = gross2 / 100n;
    const discount = p(line.discount_amount, `line${i}.discount_amount`);
    const d = line.discount;
    const expectedDiscount =
      !itemLevel || d === 0
        ? 0n
        : typeof d === 'string'
          ? roundDiv(gross * percentBp(d), 10_000n)
          : p(d, `line${i}.discount`) < gross
            ? p(d, `line${i}.discount`)
            : gross;
    if (discount !== expectedDiscount)
      problems.push(`${label}.line${i}: discount_amount ${discount} ≠ ${expectedDiscount}`);
    const itemTotal = p(line.item_total, `line${i}.item_total`);
    if (itemTotal !== gross - discount)
      problems.push(`${label}.line${i}: item_total ${itemTotal} ≠ ${gross} − ${discount}`);
    itemTotals.push(itemTotal);
  });
  const subTotal = p(doc.sub_total, 'sub_total');
  const sumItems = itemTotals.reduce((s, x) => s + x, 0n);
  if (subTotal !== sumItems) problems.push(`${label}: sub_total ${subTotal} ≠ Σ item_total ${sumItems}`);

  let entityDiscount = 0n;
  if (!itemLevel) {
    const d = doc.discount;
    entityDiscount = typeof d === 'string' ? roundDiv(subTotal * percentBp(d), 10_000n) : p(d, 'discount');
    if (entityDiscount > subTotal) entityDiscount = subTotal;
  }
  if (doc.discount_amount !== undefined && p(doc.discount_amount, 'discount_amount') !== entityDiscount)
    problems.push(`${label}: discount_amount ≠ ${entityDiscount}`);
  const shares =
    !itemLevel && doc.is_discount_before_tax === true ? allocate(entityDiscount, itemTotals) : itemTotals.map(() => 0n);

  const expectedTaxes = new Map<string, bigint>();
  lines.forEach((line, i) => {
    const taxId = String(line.tax_id ?? '');
    if (taxId === '') {
      if (Number(line.tax_percentage) !== 0) problems.push(`${label}.line${i}: untaxed line with a percentage`);
      return;
    }
    const tax = taxes.get(taxId);
    if (!tax) return void problems.push(`${label}.line${i}: unknown tax_id ${taxId}`);
    if (tax.tax_name !== line.tax_name || tax.tax_type !== line.tax_type)
      problems.push(`${label}.line${i}: tax name/type mismatch`);
    const taxable = (itemTotals[i] ?? 0n) - (shares[i] ?? 0n);
    for (const componentId of tax.components) {
      const c = taxes.get(componentId);
      if (!c) return void problems.push(`${label}: unknown component ${componentId}`);
      expectedTaxes.set(
        c.tax_name,
        (expectedTaxes.get(c.tax_name) ?? 0n) + roundDiv(taxable * BigInt(c.basisPoints), 10_000n),
      );
    }
  });
  // Reverse charge (India): the supplier collects no GST; the lines' GST is what the buyer pays.
  if (doc.is_reverse_charge_applied === true) {
    const buyers = [...expectedTaxes.values()].reduce((s, x) => s + x, 0n);
    if (p(doc.reverse_charge_tax_total, 'reverse_charge_tax_total') !== buyers)
      problems.push(`${label}: reverse_charge_tax_total ≠ the lines' GST ${buyers}`);
    expectedTaxes.clear();
  }
  const wireTaxes = (doc.taxes as Json[] | undefined) ?? [];
  let taxSum = 0n;
  for (const t of wireTaxes) {
    const amount = p(t.tax_amount, `taxes.${String(t.tax_name)}`);
    taxSum += amount;
    if (expectedTaxes.get(String(t.tax_name)) !== amount)
      problems.push(`${label}: tax ${String(t.tax_name)} ${amount} ≠ ${expectedTaxes.get(String(t.tax_name))}`);
  }
  if (wireTaxes.length !== expectedTaxes.size)
    problems.push(`${label}: ${wireTaxes.length} tax components, expected ${expectedTaxes.size}`);
  const taxTotal = p(doc.tax_total, 'tax_total');
  if (taxTotal !== taxSum) problems.push(`${label}: tax_total ${taxTotal} ≠ Σ taxes ${taxSum}`);

  const shipping = doc.shipping_charge === undefined ? 0n : p(doc.shipping_charge, 'shipping_charge');
  const adjustment = doc.adjustment === undefined ? 0n : p(doc.adjustment, 'adjustment');
  const total = p(doc.total, 'total');
  const expectedTotal = subTotal - entityDiscount + taxTotal + shipping + adjustment;
  if (total !== expectedTotal)
    problems.push(
      `${label}: total ${total} ≠ ${subTotal} − ${entityDiscount} + ${taxTotal} + ${shipping} + ${adjustment}`,
    );
  if (total <= 0n) problems.push(`${label}: total not positive`);

  const rateMicro = BigInt(Math.round(Number(doc.exchange_rate) * 1_000_000));
  const bcy = (field: string, value: bigint) => {
    if (doc[field] === undefined) return;
    const expected = roundDiv(value * rateMicro, 1_000_000n);
    if (p(doc[field], field) !== expected)
      problems.push(`${label}: ${field} ≠ round(${value} × ${doc.exchange_rate as number})`);
  };
  bcy('bcy_sub_total', subTotal);
  bcy('bcy_tax_total', taxTotal);
  bcy('bcy_total', total);
  if (doc.currency_code === 'INR' && doc.exchange_rate !== 1)
    problems.push(`${label}: INR document with exchange_rate ${String(doc.exchange_rate)}`);
  if (doc.currency_code !== 'INR' && doc.exchange_rate === 1) problems.push(`${label}: foreign document at 1:1`);
  return { problems, total };
}
