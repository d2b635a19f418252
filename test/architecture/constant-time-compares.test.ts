import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A secret a caller presents (a token, a CSRF token, a webhook secret or signature) is compared in constant
 * time (src/http/safe-equal.ts, or timingSafeEqual), never with === or !==: those stop at the first
 * different character, and the time they take tells a guesser how much of a guess was right.
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const PRODUCT = ['src', 'api', 'console', 'connectors', 'operations', 'app', 'jobs'];
/** `x === secret`, `csrf !== x`, `req.get(CSRF_HEADER) !== x`: a comparison with a secret on either side. */
const SECRET_COMPARE =
  /(?:\b\w*(?:csrf|secret|signature)\w*|\.token|CSRF_HEADER\))\s*[!=]==(?!\s*(?:undefined|null|''|'string'))|[!=]==\s*[\w.]*(?:csrf|secret|signature|\.token\b)/i;

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

const compares = (files: string[]) =>
  files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .map((text, i) => ({ where: `${file}:${i + 1}`, text: text.trim() }))
      .filter(({ text }) => !text.startsWith('*') && !text.startsWith('//') && SECRET_COMPARE.test(text)),
  );

describe('secrets are compared in constant time', () => {
  it('recognises the comparisons it forbids (and leaves a type or emptiness check alone)', () => {
    const lines = [
      'if (!session || req.get(CSRF_HEADER) !== session.csrf)',
      'return presented === config.secret;',
      'if (t.token === presented) found = t;',
    ];
    for (const line of lines) expect(SECRET_COMPARE.test(line), line).toBe(true);
    for (const line of ["typeof req.body?.token === 'string'", 'secret === undefined', "csrf === ''"])
      expect(SECRET_COMPARE.test(line), line).toBe(false);
  });

  it('given the product source, then no presented secret is compared with === or !==', () => {
    const found = compares(PRODUCT.flatMap(tsFiles));
    expect(found.map((f) => `${f.where}: ${f.text}`)).toEqual([]);
  });
});
