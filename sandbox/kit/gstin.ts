import type { SeededRandom } from './seeded-random.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A PAN: five letters (the 4th says the holder type: C company, F firm, P person; the 5th is the initial of
 * the holder's name), four digits, one letter. Without `nameInitial` the 5th letter is drawn too.
 */
export function makePan(random: SeededRandom, holderType: 'C' | 'F' | 'P', nameInitial?: string): string {
  const first = random.letters(3);
  const initial =
    nameInitial === undefined
      ? random.letters(1)
      : /[A-Z]/.test(nameInitial.toUpperCase())
        ? nameInitial.toUpperCase()
        : 'X';
  return `${first}${holderType}${initial}${random.int(1000, 9999)}${random.letters(1)}`;
}

/**
 * A GSTIN (15 characters): 2-digit state code, the PAN, the registration number for that PAN in the state
 * (1 for the first), 'Z', and the GST network's mod-36 check character, so generated GSTINs pass a
 * validating connector.
 */
export function makeGstin(stateGstCode: string, pan: string, registration = 1): string {
  const first14 = `${stateGstCode}${pan}${ALPHABET.charAt(registration)}Z`;
  return first14 + gstinCheckCharacter(first14);
}

/** The check character over a GSTIN's first 14 characters (mod 36, weights alternating 1 and 2). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = ALPHABET.indexOf(first14.charAt(i).toUpperCase());
    if (value < 0) throw new Error(`not a GSTIN prefix: ${first14}`);
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET.charAt((36 - (sum % 36)) % 36);
}
