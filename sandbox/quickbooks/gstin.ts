import type { SeededRandom } from '../kit/seeded-random.js';

const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A PAN: five letters (the 4th says the holder type: C company, P person), four digits, a letter. */
export function generatePan(rng: SeededRandom, holder: 'C' | 'P'): string {
  return `${rng.letters(3)}${holder}${rng.letters(1)}${rng.digits(4)}${rng.letters(1)}`;
}

/** A GSTIN: state code, PAN, entity number, "Z", and the mod-36 check character GSTN uses. */
export function generateGstin(stateGstCode: string, pan: string): string {
  const body = `${stateGstCode}${pan}1Z`;
  return body + checkChar(body);
}

function checkChar(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const product = CHARS.indexOf(body[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARS[(36 - (sum % 36)) % 36]!;
}
