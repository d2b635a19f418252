import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  /** The git commit the build was made from (`npm run build` records it), or ERP_SYNC_COMMIT, else "unknown". */
  commit: string;
}

let cached: BuildInfo | undefined;

/** The running version (package.json) and commit, read once. Works from src/ (tests) and dist/ alike. */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  const recorded = join(dir, 'dist', 'COMMIT');
  const commit = process.env.ERP_SYNC_COMMIT || (existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '') || 'unknown';
  cached = { version, commit };
  return cached;
}
