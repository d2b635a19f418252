import { describe, expect, it } from 'vitest';
import { countryCodeOf } from '../../src/mapping/country-code.js';

describe('countryCodeOf', () => {
  it('given names as people type them, when mapped, then they give ISO 3166 alpha-2 codes', () => {
    expect(countryCodeOf('India')).toBe('IN');
    expect(countryCodeOf(' bharat ')).toBe('IN');
    expect(countryCodeOf('U.S.A')).toBe('US');
    expect(countryCodeOf('United States of America')).toBe('US');
    expect(countryCodeOf('United Kingdom')).toBe('GB');
    expect(countryCodeOf('England')).toBe('GB');
    expect(countryCodeOf('Deutschland')).toBe('DE');
    expect(countryCodeOf('New Zealand')).toBe('NZ');
    expect(countryCodeOf('united arab emirates')).toBe('AE');
  });

  it('given an empty or unknown value, when mapped, then it is undefined rather than a guess', () => {
    expect(countryCodeOf(undefined)).toBeUndefined();
    expect(countryCodeOf(null)).toBeUndefined();
    expect(countryCodeOf('  ')).toBeUndefined();
    expect(countryCodeOf('Atlantis')).toBeUndefined();
  });

  it('given two letters, when any code is taken, then they are the code as written, upper-cased', () => {
    expect(countryCodeOf('in')).toBe('IN');
    expect(countryCodeOf('XX')).toBe('XX');
  });

  it('given two letters, when only known codes are taken, then a known code passes, a listed name maps and a stray pair gives undefined', () => {
    expect(countryCodeOf('in', 'known')).toBe('IN');
    expect(countryCodeOf('NZ', 'known')).toBe('NZ');
    expect(countryCodeOf('uk', 'known')).toBe('GB');
    expect(countryCodeOf('us', 'known')).toBe('US');
    expect(countryCodeOf('XX', 'known')).toBeUndefined();
  });
});
