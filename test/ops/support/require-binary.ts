import { spawnSync } from 'node:child_process';

/**
 * A binary the ops tests need, or a failure that says how to get it. Never a skip: .ci/run installs
 * the Debian packages (prometheus → promtool and prometheus, chromium, docker-compose) first.
 */
export function requireBinary(name: string, debianPackage: string): string {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = r.stdout.trim();
  if (r.status !== 0 || !path) {
    throw new Error(
      `${name} is not on PATH: install the Debian package "${debianPackage}" (apt-get install -y ${debianPackage}); .ci/run does this before npm test`,
    );
  }
  return path;
}
