import { mapFail, mapOk, type MapResult } from './quarantine-reason.js';

/**
 * Indian states and union territories, by GST state code (the first two digits of a GSTIN) and by the
 * two-letter code vendors use for place of supply (Zoho `place_of_supply: "KA"`, QuickBooks
 * `CountrySubDivisionCode: "MH"`). Tally sends the state *name*, so names resolve too.
 *
 * The two-letter codes are the GST portal's (e-invoice / e-way bill masters), which differ from ISO 3166-2:IN
 * in four places: Uttarakhand UK (ISO UT), Odisha OD (ISO OR), Chhattisgarh CG (ISO CT), Telangana TS
 * (ISO TG). Both spellings resolve; the GST one is what we emit.
 * Code 28 ("Andhra Pradesh before division") is not listed: GSTINs began in 2017, after the split, and
 * Andhra Pradesh uses 37. Code 25 (Daman and Diu) was merged into 26 in 2020 but old records still carry it.
 */
export interface IndianState {
  /** GST state code, two digits: "29". */
  gstCode: string;
  /** Two-letter code as the GST portal writes it: "KA". */
  code: string;
  name: string;
}

type Row = readonly [gstCode: string, code: string, name: string, aliases?: readonly string[]];

const ROWS: readonly Row[] = [
  ['01', 'JK', 'Jammu and Kashmir'],
  ['02', 'HP', 'Himachal Pradesh'],
  ['03', 'PB', 'Punjab'],
  ['04', 'CH', 'Chandigarh'],
  ['05', 'UK', 'Uttarakhand', ['UT', 'UA', 'Uttaranchal']],
  ['06', 'HR', 'Haryana'],
  ['07', 'DL', 'Delhi', ['New Delhi', 'NCT of Delhi']],
  ['08', 'RJ', 'Rajasthan'],
  ['09', 'UP', 'Uttar Pradesh'],
  ['10', 'BR', 'Bihar'],
  ['11', 'SK', 'Sikkim'],
  ['12', 'AR', 'Arunachal Pradesh'],
  ['13', 'NL', 'Nagaland'],
  ['14', 'MN', 'Manipur'],
  ['15', 'MZ', 'Mizoram'],
  ['16', 'TR', 'Tripura'],
  ['17', 'ML', 'Meghalaya'],
  ['18', 'AS', 'Assam'],
  ['19', 'WB', 'West Bengal'],
  ['20', 'JH', 'Jharkhand'],
  ['21', 'OD', 'Odisha', ['OR', 'Orissa']],
  ['22', 'CG', 'Chhattisgarh', ['CT']],
  ['23', 'MP', 'Madhya Pradesh'],
  ['24', 'GJ', 'Gujarat'],
  ['25', 'DD', 'Daman and Diu'],
  ['26', 'DN', 'Dadra and Nagar Haveli and Daman and Diu', ['DH', 'Dadra and Nagar Haveli']],
  ['27', 'MH', 'Maharashtra'],
  ['29', 'KA', 'Karnataka'],
  ['30', 'GA', 'Goa'],
  ['31', 'LD', 'Lakshadweep'],
  ['32', 'KL', 'Kerala'],
  ['33', 'TN', 'Tamil Nadu'],
  ['34', 'PY', 'Puducherry', ['Pondicherry']],
  ['35', 'AN', 'Andaman and Nicobar Islands'],
  ['36', 'TS', 'Telangana', ['TG']],
  ['37', 'AP', 'Andhra Pradesh', ['AD']],
  ['38', 'LA', 'Ladakh'],
  ['97', 'OT', 'Other Territory'],
];

export const INDIAN_STATES: readonly IndianState[] = ROWS.map(([gstCode, code, name]) =>
  Object.freeze({ gstCode, code, name }),
);

/** "Jammu & Kashmir", "jammu and kashmir", "JAMMU-AND-KASHMIR" → "jammuandkashmir". */
function key(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '');
}

const LOOKUP = new Map<string, IndianState>();
ROWS.forEach(([gstCode, code, name, aliases = []], i) => {
  const state = INDIAN_STATES[i]!;
  for (const k of [gstCode, code, name, ...aliases]) LOOKUP.set(key(k), state);
  // "IN-KA" (ISO 3166-2 form) as well as "KA".
  for (const k of [code, ...aliases.filter((a) => a.length === 2)]) LOOKUP.set(key(`IN-${k}`), state);
});

/**
 * Resolves a GST code ("29", also "9"), a two-letter code ("KA", "ka", "IN-KA", ISO variants like "TG"),
 * or a state name ("Karnataka", "Orissa") to the state. Undefined when it is none of these.
 */
export function findIndianState(input: string | number | null | undefined): IndianState | undefined {
  if (input === null || input === undefined) return undefined;
  let text = String(input).trim();
  if (/^\d$/.test(text)) text = `0${text}`;
  return LOOKUP.get(key(text));
}

/** As findIndianState, with a typed failure for the mapper to return. */
export function resolveIndianState(input: unknown, field = 'state'): MapResult<IndianState> {
  if (input === null || input === undefined || input === '') {
    return mapFail('MISSING_FIELD', `${field} is missing`, { field });
  }
  const state = typeof input === 'string' || typeof input === 'number' ? findIndianState(input) : undefined;
  if (!state)
    return mapFail('INVALID_FIELD', `${field} ${JSON.stringify(input)} is not an Indian state or UT`, { field });
  return mapOk(state);
}

/** "KA" → "29". Undefined when unknown. */
export function gstCodeOf(stateCode: string): string | undefined {
  return findIndianState(stateCode)?.gstCode;
}

/** "29" → "KA". Undefined when unknown. */
export function stateCodeOf(gstCode: string): string | undefined {
  return findIndianState(gstCode)?.code;
}

/** The registration state of a GSTIN: its first two digits. Undefined for anything that is not a GSTIN. */
export function stateOfGstin(gstin: string): IndianState | undefined {
  const m = /^(\d{2})[A-Z0-9]{13}$/.exec(gstin.trim().toUpperCase());
  return m ? findIndianState(m[1]!) : undefined;
}
