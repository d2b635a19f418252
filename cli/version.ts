import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root.js';

/**
 * `erp-sync --version`: the package version, the commit when the code runs from a git checkout (an
 * image without git or .git prints the version alone), and the Node version. Read only when asked.
 */
export function versionLine(): string {
  const root = packageRoot();
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    })
      .toString()
      .trim();
  } catch {
    commit = undefined;
  }
  return `erp-sync ${version}${commit ? ` (commit ${commit})` : ''} node ${process.version}`;
}
