// The checks `npm test` runs before the tests: formatting (prettier), types (tsc over everything,
// tests and benches included) and the build (what the CLI tests run). Independent of one another, each
// single-threaded, so they run side by side: on two cores the three take the time of the longest.
// A check that passes is reported when it ends. A failing one's output is held until all have ended and
// printed last, then one line naming every failed check: CI logs are read from the end, and a check that
// failed first must not end up above the others' "ok" lines.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const CHECKS = [
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['build', 'npm', ['run', '-s', 'build']],
];

function run([name, command, args], write) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b) => (output += b));
    child.stderr.on('data', (b) => (output += b));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      const report = `== ${name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`;
      const text = output.trim() ? (output.endsWith('\n') ? output : `${output}\n`) : '';
      if (ok) write(report + text);
      resolve({ name, ok, report: report + text });
    });
  });
}

/**
 * Runs the checks side by side ([name, command, args] each) and writes their reports; resolves true when all
 * passed. Failed checks are written after every check has ended, then a last line names them.
 */
export async function runChecks(checks, write = (s) => process.stdout.write(s)) {
  const results = await Promise.all(checks.map((check) => run(check, write)));
  const failed = results.filter((r) => !r.ok);
  for (const r of failed) write(r.report);
  if (failed.length) write(`== static checks failed: ${failed.map((r) => r.name).join(', ')}\n`);
  return failed.length === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!(await runChecks(CHECKS))) process.exit(1);
}
