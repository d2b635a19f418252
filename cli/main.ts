#!/usr/bin/env node
import { heapSizing, HeapSizeError, type HeapSizing } from './heap-sizing.js';

/**
 * The `erp-sync` entry point. V8 reads its heap limits only when the process starts
 * (v8.setFlagsFromString afterwards changes neither the limit nor the semi-spaces, measured), so a
 * process started without them replaces itself with the same command plus the flags, before the
 * program is loaded: process.execve keeps the pid and the open stdio, so signals, supervisors and pipes
 * see one process. Where execve is missing (Windows) the command runs with V8's own sizing.
 */
let sizing: HeapSizing = { flags: [], env: {} };
try {
  sizing = heapSizing(process.argv.slice(2), process.execArgv, process.env);
} catch (err) {
  if (!(err instanceof HeapSizeError)) throw err;
  console.error(`erp-sync: ${err.message}`);
  process.exit(2);
}
const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
if (sizing.flags.length && execve)
  execve(process.execPath, [process.execPath, ...process.execArgv, ...sizing.flags, ...process.argv.slice(1)], { ...process.env, ...sizing.env });
await import('./program.js');
