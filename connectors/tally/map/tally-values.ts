import { dec, type Decimal, mapFail, mapOk, type MapResult } from '../../../src/mapping/index.js';

/**
 * Tally's value formats, parsed exactly (decimals, never floats):
 * - amounts: "-59000.00", "59,000.00", "-₹ 59,000.00" — negative is a debit, positive a credit;
 *   a foreign-currency amount ("$1,200.00 @ ₹ 83.25/$ = ₹ 99,900.00") is not mapped yet (UNSUPPORTED);
 * - rates: "50,000.00/Nos" — thousands separators (Indian grouping: 1,00,000.00) and the unit;
 * - quantities: " 2 Nos", "-2 Nos", " 1.500 Kgs" — a leading space, maybe a sign, the unit;
 * - dates: "20250401" (YYYYMMDD), a calendar date;
 * - rates of tax: " 18", "9 %".
 * (Formats as tally-database-loader reads them, https://github.com/dhananjay1405/tally-database-loader.)
 */
const NUMBER = /^(-?)\s*(?:₹|Rs\.?)?\s*(-?)((?:\d{1,3}(?:,\d{2,3})*|\d+)(?:\.\d+)?)$/;

export function parseTallyAmount(raw: unknown, field: string): MapResult<Decimal> {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return mapOk(dec(0));
  if (typeof raw !== 'string') return mapFail('INVALID_FIELD', `${field} is not text`, { field });
  const text = raw.trim();
  if (text.includes('@'))
    return mapFail('UNSUPPORTED', `${field} is a foreign-currency amount; those are not mapped yet`, { field });
  const m = NUMBER.exec(text);
  if (!m) return mapFail('INVALID_FIELD', `${field} is not a Tally amount`, { field });
  const value = dec(m[3]!.replaceAll(',', ''));
  return mapOk(m[1] || m[2] ? value.negated() : value);
}

/** "50,000.00/Nos" → 50000.00 and "Nos"; undefined when absent. */
export function parseTallyRate(raw: unknown, field: string): MapResult<{ value: Decimal; unit?: string } | undefined> {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return mapOk(undefined);
  if (typeof raw !== 'string') return mapFail('INVALID_FIELD', `${field} is not text`, { field });
  const [amount, unit] = raw.split('/', 2) as [string, string | undefined];
  const value = parseTallyAmount(amount, field);
  if (!value.ok) return value;
  return mapOk({ value: value.value.abs(), ...(unit?.trim() ? { unit: unit.trim() } : {}) });
}

const QUANTITY = /^(-?)\s*(\d+(?:\.\d+)?)\s*(.*)$/;

/** " 2 Nos" → 2 and "Nos" (outward quantities may come negative: the size is what a line bills). */
export function parseTallyQuantity(
  raw: unknown,
  field: string,
): MapResult<{ value: Decimal; unit?: string } | undefined> {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return mapOk(undefined);
  if (typeof raw !== 'string') return mapFail('INVALID_FIELD', `${field} is not text`, { field });
  const m = QUANTITY.exec(raw.trim().replaceAll(',', ''));
  if (!m) return mapFail('INVALID_FIELD', `${field} is not a Tally quantity`, { field });
  return mapOk({ value: dec(m[2]!), ...(m[3]!.trim() ? { unit: m[3]!.trim() } : {}) });
}

/** "20250401" → "2025-04-01"; a calendar date (Tally keeps no time of day on a voucher). */
export function parseTallyDate(raw: unknown, field: string): MapResult<string | undefined> {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return mapOk(undefined);
  const m = typeof raw === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(raw.trim()) : null;
  if (!m) return mapFail('INVALID_FIELD', `${field} is not a Tally date (YYYYMMDD)`, { field });
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso)
    return mapFail('INVALID_FIELD', `${field} is not a calendar date`, { field });
  return mapOk(iso);
}

/** " 18" or "9 %" → 18 / 9; undefined when absent. */
export function parseTallyPercent(raw: unknown, field: string): MapResult<Decimal | undefined> {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return mapOk(undefined);
  const m = typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(raw) : null;
  if (!m) return mapFail('INVALID_FIELD', `${field} is not a rate`, { field });
  return mapOk(dec(m[1]!));
}

export const isYes = (v: unknown) => typeof v === 'string' && v.trim().toLowerCase() === 'yes';
