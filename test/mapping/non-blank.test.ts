import { describe, expect, it } from 'vitest';
import { nonBlank } from '../../src/mapping/index.js';

describe('nonBlank: vendor free text, or nothing', () => {
  it('given text with surrounding whitespace, then the trimmed text', () => {
    expect(nonBlank('  Acme Traders \n')).toBe('Acme Traders');
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
    ['only whitespace', ' \t\n'],
  ])('given %s, then undefined (left out, never sent as "")', (_what, value) => {
    expect(nonBlank(value)).toBeUndefined();
  });
});
