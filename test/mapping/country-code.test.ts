import { describe, expect, it } from 'vitest';
import { countryCodeOf } from '../../src/mapping/country-code.js';

describe('countryCodeOf', () => {
  it.each([
    ['India', 'IN'],
    [' bharat ', 'IN'],
    ['U.S.A', 'US'],
    ['United States of America', 'US'],
    ['United Kingdom', 'GB'],
    ['England', 'GB'],
    ['Deutschland', 'DE'],
    ['New Zealand', 'NZ'],
    ['united arab emirates', 'AE'],
  ])('given the name %j as people type it, when mapped, then it is %s', (name, code) => {
    expect(countryCodeOf(name)).toBe(code);
  });

  it.each([undefined, null, '  ', 'Atlantis'])(
    'given %j, when mapped, then it is undefined rather than a guess',
    (value) => {
      expect(countryCodeOf(value)).toBeUndefined();
    },
  );

  it('given two letters, when any code is taken, then they are the code as written, upper-cased', () => {
    expect(countryCodeOf('in')).toBe('IN');
    expect(countryCodeOf('XX')).toBe('XX');
  });

  it.each([
    ['in', 'IN'],
    ['NZ', 'NZ'],
    ['uk', 'GB'],
    ['us', 'US'],
    ['XX', undefined],
  ])(
    'given %j, when only known codes are taken, then it is %s (a known code passes, a listed name maps, a stray pair is undefined)',
    (value, code) => {
      expect(countryCodeOf(value, 'known')).toBe(code);
    },
  );
});
