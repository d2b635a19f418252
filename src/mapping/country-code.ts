/**
 * Country names as people type them in an ERP ("India", "U.S.A", "United Kingdom", "Deutschland") →
 * ISO 3166 alpha-2, keyed by the name's letters in lower case (spaces and dots dropped). Written as
 * `CODE:name,name` rows. A name not listed gives undefined: the billing model's default then applies,
 * never a guess.
 */
const COUNTRIES: ReadonlyMap<string, string> = new Map(
  (
    'IN:india,ind,bharat US:usa,us,unitedstates,unitedstatesofamerica,america GB:uk,unitedkingdom,greatbritain,england ' +
    'DE:germany,deutschland FR:france SG:singapore AE:unitedarabemirates,uae AU:australia CA:canada JP:japan CN:china NL:netherlands ' +
    'CH:switzerland SA:saudiarabia IE:ireland NZ:newzealand ZA:southafrica SE:sweden ES:spain IT:italy MY:malaysia ID:indonesia ' +
    'LK:srilanka BD:bangladesh NP:nepal QA:qatar OM:oman KW:kuwait BH:bahrain HK:hongkong BE:belgium DK:denmark NO:norway FI:finland ' +
    'AT:austria KE:kenya MX:mexico BR:brazil'
  )
    .split(' ')
    .flatMap((row) => {
      const [code, names] = row.split(':') as [string, string];
      return names.split(',').map((name) => [name, code] as const);
    }),
);

/** The codes the table above names. */
const KNOWN_CODES: ReadonlySet<string> = new Set(COUNTRIES.values());

/**
 * Which two-letter values count as a code, upper-cased as written: `any` takes every pair of letters
 * (the Xero and Zoho Books mappers: Xero's free-text Country sometimes holds a code, "IN"); `known` only
 * the codes of the table above (the QuickBooks mapper), so a stray pair of letters is not sent on as a
 * country code.
 */
export type TwoLetterValues = 'any' | 'known';

/** A free-text country → ISO 3166 alpha-2, or undefined when it is empty or not recognised. */
export function countryCodeOf(
  country: string | null | undefined,
  twoLetters: TwoLetterValues = 'any',
): string | undefined {
  const text = country?.trim();
  if (!text) return undefined;
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    if (twoLetters === 'any' || KNOWN_CODES.has(code)) return code;
  }
  return COUNTRIES.get(text.toLowerCase().replace(/[^a-z]/g, ''));
}
