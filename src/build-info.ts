import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

export interface BuildInfo {
  version: string;
  /** The git commit the build was made from (`npm run build` records it), or ERP_SYNC_COMMIT, else "unknown". */
  commit: string;
}

let cached: BuildInfo | undefined;

/** The running version (package.json) and commit, read once. Works from src/ (tests) and dist/ alike. */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const dir = packageRoot();
  const version =
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  const recorded = join(dir, 'dist', 'COMMIT');
  const commit =
    process.env.ERP_SYNC_COMMIT || (existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '') || 'unknown';
  cached = { version, commit };
  return cached;
}
