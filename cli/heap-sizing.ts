/**
 * The memory sizing the CLI gives itself. Without it V8 sizes the heap from the host's memory (a 4 GiB
 * old space and 64 MiB semi-spaces on a 24 GiB machine) and lets a worker whose live heap is ~60 MiB
 * reach 450 MiB RSS before it collects: headroom, not data (docs/operations.md, "Memory").
 *
 * Only node: built-ins may be imported here: it runs before the program is loaded.
 */

/** Old-space cap, MiB: three times the largest live heap measured (64 MiB, docs/benchmarks.md). */
export const DEFAULT_OLD_SPACE_MB = 192;
/** Semi-space cap, MiB: short-lived garbage is collected every few MiB instead of every 64. */
export const DEFAULT_SEMI_SPACE_MB = 4;
/** Overrides the old-space cap (MiB); 0 leaves V8's own sizing (no flags added). */
export const HEAP_ENV = 'ERP_SYNC_HEAP_MB';
/** The smallest old-space cap accepted: the program's own code and modules take about 35 MiB of heap. */
export const MIN_OLD_SPACE_MB = 64;

/** Commands that host the emulators and their generated data in-process keep V8's own sizing. */
const UNCAPPED_COMMANDS = new Set(['demo', 'sandbox']);

export class HeapSizeError extends Error {}

/** Whether the command gets the CLI's memory sizing (every command but UNCAPPED_COMMANDS). */
export function isSizedCommand(args: readonly string[]): boolean {
  const command = args.find((a) => !a.startsWith('-'));
  return !(command && UNCAPPED_COMMANDS.has(command));
}

export interface HeapSizing {
  /** V8 flags to add to the node command line (none: start as is). */
  flags: string[];
  /** Environment to add with them. */
  env: Record<string, string>;
}

/**
 * What to start the CLI with that it was not started with. Nothing when the command is one of
 * UNCAPPED_COMMANDS or ERP_SYNC_HEAP_MB=0; a flag already on the node command line or in NODE_OPTIONS is
 * not added again (an operator's choice wins). With the flags comes MALLOC_ARENA_MAX=2 unless set: glibc
 * otherwise gives each of V8's and libuv's threads its own malloc arena, 25 MiB of RSS more at the
 * same heap (measured); no effect on other C libraries.
 */
export function heapSizing(args: readonly string[], execArgv: readonly string[], env: NodeJS.ProcessEnv): HeapSizing {
  const none = { flags: [], env: {} };
  if (!isSizedCommand(args)) return none;
  const raw = env[HEAP_ENV]?.trim();
  let oldSpace = DEFAULT_OLD_SPACE_MB;
  if (raw) {
    if (!/^\d+$/.test(raw))
      throw new HeapSizeError(`${HEAP_ENV} must be a whole number of MiB (0 = V8's default sizing), got "${raw}"`);
    oldSpace = Number(raw);
    if (oldSpace === 0) return none;
    if (oldSpace < MIN_OLD_SPACE_MB)
      throw new HeapSizeError(
        `${HEAP_ENV}=${oldSpace} is below ${MIN_OLD_SPACE_MB} MiB: the program alone takes about 35 MiB of heap`,
      );
  }
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].map((f) => f.replace(/_/g, '-'));
  const has = (name: string) => given.some((f) => f === name || f.startsWith(`${name}=`));
  const flags: string[] = [];
  if (!has('--max-old-space-size')) flags.push(`--max-old-space-size=${oldSpace}`);
  if (!has('--max-semi-space-size')) flags.push(`--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`);
  if (!flags.length) return none;
  return { flags, env: env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: '2' } : {} };
}
