import { describe, expect, it } from 'vitest';
import { acceptedLocales } from '../../console/accept-language.js';

describe('acceptedLocales: the reader locales from Accept-Language', () => {
  it.each([
    { header: undefined, expected: [] },
    { header: 'de-DE,de;q=0.9,en;q=0.8', expected: ['de-DE', 'de', 'en'] },
    { header: 'en;q=0.5, hi-IN', expected: ['hi-IN', 'en'] },
    { header: 'fr;q=0, *;q=0.1, ja', expected: ['ja'] },
    { header: 'not a tag!, en-gb', expected: ['en-GB'] },
    { header: 'en-AU,en-CA,en-GB,en-IE,en-IN,en-NZ,en-US', expected: ['en-AU', 'en-CA', 'en-GB', 'en-IE', 'en-IN'] },
  ])('given $header, then $expected, best first, only tags Intl knows', ({ header, expected }) => {
    expect(acceptedLocales(header)).toEqual(expected);
  });
});
