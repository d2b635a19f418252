import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The product never reads the host's time zone: a worker in Asia/Kolkata and one in UTC must date the same
 * vendor change the same way. Date's local getters and setters, its zone offset and its local-date strings
 * answer in the host's zone, so the product uses the UTC forms (getUTC…, toISOString) or an explicit
 * Intl zone (jobs/reconcile/date-in-zone.ts, connectors/zoho-books/streams/state.ts) instead. Parsing goes
 * through src/mapping/time.ts, which places a time by its own offset or its vendor's documented zone.
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const PRODUCT = ['src', 'jobs', 'connectors', 'operations', 'app', 'api', 'console', 'cli'];
const HOST_ZONE =
  /\.(get|set)(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)\(|\.getTimezoneOffset\(|\.to(LocaleDateString|LocaleTimeString|DateString|TimeString)\(/;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

const files = PRODUCT.flatMap(sources);

describe('host time zone APIs in the product', () => {
  it('is read from the source (sanity: the files are found)', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('given every product file, then none calls a Date getter, setter or string form that answers in the host zone', () => {
    const found = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (HOST_ZONE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
