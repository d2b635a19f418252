// The checks `npm test` runs before the tests: formatting (prettier), types (tsc over everything,
// tests and benches included) and the build (what the CLI tests run). Independent of one another, each
// single-threaded, so they run side by side: on two cores the three take the time of the longest.
// Each one's output is printed whole when it ends; the first failure fails the run, after all have ended.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['lint', ['run', '-s', 'lint']],
  ['typecheck', ['run', '-s', 'typecheck']],
  ['build', ['run', '-s', 'build']],
];

function run([name, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b) => (output += b));
    child.stderr.on('data', (b) => (output += b));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`== ${name}: ${code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      if (code !== 0 || output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
if (results.includes(false)) process.exit(1);
