/**
 * GSTIN check character (15th character): the GST network's mod-36 scheme over the first 14 characters,
 * so generated GSTINs look real to anyone who validates them.
 */
const CHARSET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = CHARSET.indexOf(first14[i] ?? '');
    if (value < 0) throw new Error(`not a GSTIN prefix: ${first14}`);
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARSET[(36 - (sum % 36)) % 36]!;
}

/** A GSTIN for a state code ("29") and a PAN ("AABCB1234F"), entity number 1. */
export function makeGstin(stateCode: string, pan: string): string {
  const first14 = `${stateCode}${pan}1Z`;
  return first14 + gstinCheckCharacter(first14);
}
