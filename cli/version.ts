import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'erp-billing-sync';

/** The package's root: the nearest directory above this file whose package.json is ours (source or dist/). */
function packageRoot(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `erp-sync --version`: the package version, the commit when the code runs from a git checkout (an
 * image without git or .git prints the version alone), and the Node version. Read only when asked.
 */
export function versionLine(): string {
  const root = packageRoot();
  const version = root ? (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version : 'unknown';
  let commit: string | undefined;
  if (root) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2_000 })
        .toString()
        .trim();
    } catch {
      commit = undefined;
    }
  }
  return `erp-sync ${version}${commit ? ` (commit ${commit})` : ''} node ${process.version}`;
}
