import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'erp-billing-sync';

let cached: string | undefined;

/**
 * The package's root: the nearest directory above this file whose package.json is ours. The same from
 * src/ (tests), dist/ (a build) and /app (the image).
 */
export function packageRoot(): string {
  if (cached) return cached;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME)
      return (cached = dir);
    if (dirname(dir) === dir)
      throw new Error(`no package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}`);
  }
}
