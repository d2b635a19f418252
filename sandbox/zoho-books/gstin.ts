import type { SeededRandom } from '../kit/seeded-random.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A PAN: 5 letters (the 4th says the holder type, C company, F firm, P person; the 5th is the initial of the
 * name), 4 digits, 1 letter.
 */
export function makePan(random: SeededRandom, holderType: 'C' | 'F' | 'P', nameInitial: string): string {
  const letter = (): string => LETTERS.charAt(random.int(0, 25));
  const initial = /[A-Z]/.test(nameInitial.toUpperCase()) ? nameInitial.toUpperCase() : 'X';
  return `${letter()}${letter()}${letter()}${holderType}${initial}${random.int(1000, 9999)}${letter()}`;
}

/**
 * A GSTIN (15 characters): 2-digit state code, PAN, registration number for that PAN in the state, 'Z',
 * and the mod-36 check character. Valid checksums let a connector validate GSTINs if it wants to.
 */
export function makeGstin(stateGstCode: string, pan: string, registration = 1): string {
  const body = `${stateGstCode}${pan}${ALPHABET.charAt(registration)}Z`;
  return body + gstinCheckCharacter(body);
}

/** The GSTN check character over the first 14 characters. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = ALPHABET.indexOf(first14.charAt(i).toUpperCase());
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET.charAt((36 - (sum % 36)) % 36);
}
