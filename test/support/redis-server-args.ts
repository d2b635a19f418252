/**
 * redis-server's data options for a test's own server: its files in `dir`, no RDB snapshots, and
 * `noeviction` (as the worker requires). `appendOnly`: an append-only file fsynced on every write, so a
 * restart keeps the data as a production Redis with AOF would; otherwise nothing persists.
 */
export function redisDataArgs(dir: string, options: { appendOnly?: boolean } = {}): string[] {
  const persistence = options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  return ['--dir', dir, '--save', '', ...persistence, '--maxmemory-policy', 'noeviction'];
}
