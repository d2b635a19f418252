// Stops a test run at once, in one line, on a Node older than package.json `engines` allows. Written for
// any Node that runs ES modules (no newer syntax), since its whole point is to run on an old one.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;

/** "24.5.1" → [24, 5, 1]; missing parts are 0. */
function parse(version) {
  const parts = version.replace(/^[v=^~>]+/, '').split('.');
  return [0, 1, 2].map((i) => Number(parts[i] || 0));
}
function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// The oldest version any alternative of the range accepts ("^24.0.0 || >=26.0.0" → 24.0.0).
const lowest = engines
  .split('||')
  .map((alternative) => parse(alternative.trim().split(/\s+/)[0]))
  .sort(compare)[0];
const current = parse(process.versions.node);

if (compare(current, lowest) < 0) {
  const needed = lowest[1] || lowest[2] ? lowest.join('.') : String(lowest[0]);
  console.error(`erp-sync tests need Node ${needed} or newer (engines: ${engines}); this is ${process.version}`);
  process.exit(1);
}
