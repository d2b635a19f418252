#!/usr/bin/env node
import { heapSizing, HeapSizeError, type HeapSizing, isSizedCommand } from './heap-sizing.js';
import { RssMarkError, rssMarkMb, startMemoryGuard } from '../src/observability/memory-guard.js';

/**
 * The `erp-sync` entry point. V8 reads its heap limits only when the process starts
 * (v8.setFlagsFromString afterwards changes neither the limit nor the semi-spaces, measured), so a
 * process started without them replaces itself with the same command plus the flags, before the
 * program is loaded: process.execve keeps the pid and the open stdio, so signals, supervisors and pipes
 * see one process. Where execve is missing (Windows) the command runs with V8's own sizing.
 */
let sizing: HeapSizing = { flags: [], env: {} };
let rssMark: number | undefined;
try {
  sizing = heapSizing(process.argv.slice(2), process.execArgv, process.env);
  rssMark = isSizedCommand(process.argv.slice(2)) ? rssMarkMb(process.env) : undefined;
} catch (err) {
  if (!(err instanceof HeapSizeError || err instanceof RssMarkError)) throw err;
  console.error(`erp-sync: ${err.message}`);
  process.exit(2);
}
const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
if (sizing.flags.length && execve)
  execve(process.execPath, [process.execPath, ...process.execArgv, ...sizing.flags, ...process.argv.slice(1)], {
    ...process.env,
    ...sizing.env,
  });
// The same commands keep their RSS under a mark by a full collection when they pass it (src/observability/memory-guard.ts).
if (rssMark !== undefined) startMemoryGuard({ markMb: rssMark });
await import('./program.js');
