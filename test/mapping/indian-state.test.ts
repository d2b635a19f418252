import { describe, expect, it } from 'vitest';
import {
  findIndianState,
  gstCodeOf,
  INDIAN_STATES,
  resolveIndianState,
  stateCodeOf,
  stateOfGstin,
} from '../../src/mapping/indian-state.js';

describe('Indian state codes', () => {
  it('given the table, then GST codes and letter codes are each unique and map both ways for every state and UT', () => {
    expect(new Set(INDIAN_STATES.map((s) => s.gstCode)).size).toBe(INDIAN_STATES.length);
    expect(new Set(INDIAN_STATES.map((s) => s.code)).size).toBe(INDIAN_STATES.length);
    for (const s of INDIAN_STATES) {
      expect(gstCodeOf(s.code)).toBe(s.gstCode);
      expect(stateCodeOf(s.gstCode)).toBe(s.code);
      expect(findIndianState(s.name)).toBe(s);
    }
    expect(INDIAN_STATES.length).toBe(38);
  });

  it.each([
    ['KA', '29', 'KA'],
    ['ka', '29', 'KA'],
    ['IN-KA', '29', 'KA'],
    ['29', '29', 'KA'],
    ['9', '09', 'UP'],
    [9, '09', 'UP'],
    ['TN', '33', 'TN'],
    ['TG', '36', 'TS'], // ISO 3166-2 spelling of Telangana
    ['OR', '21', 'OD'],
    ['CT', '22', 'CG'],
    ['UT', '05', 'UK'],
    ['DH', '26', 'DN'],
    ['AP', '37', 'AP'],
    ['LA', '38', 'LA'],
    ['Orissa', '21', 'OD'],
    ['Jammu & Kashmir', '01', 'JK'],
    [' tamil nadu ', '33', 'TN'],
    ['Pondicherry', '34', 'PY'],
    ['97', '97', 'OT'],
  ])('given %j, then it is GST code %s, letter code %s', (input, gstCode, code) => {
    expect(findIndianState(input)).toMatchObject({ gstCode, code });
  });

  it.each([['XX'], ['28'], ['00'], [''], ['Atlantis'], [null], [undefined]])('given %j, then no state', (input) => {
    expect(findIndianState(input)).toBeUndefined();
  });

  it('given an unknown state, when resolved for a mapper, then INVALID_FIELD; given none, MISSING_FIELD', () => {
    expect(resolveIndianState('XX', 'place_of_supply')).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
      field: 'place_of_supply',
    });
    expect(resolveIndianState(null, 'place_of_supply')).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
    expect(resolveIndianState({}, 'x')).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
  });

  it('given a GSTIN, then its first two digits give the registration state', () => {
    expect(stateOfGstin('29AABCB1234F1Z5')?.code).toBe('KA');
    expect(stateOfGstin('27aabcb1234f1z5')?.code).toBe('MH');
    expect(stateOfGstin('29AABCB1234F1Z')).toBeUndefined();
    expect(stateOfGstin('99AABCB1234F1Z5')).toBeUndefined();
  });
});
