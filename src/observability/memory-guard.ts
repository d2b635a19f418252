import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A bound on the resident memory of a long run. With the heap caps of cli/heap-sizing.ts a worker's live
 * heap stays at 45–70 MiB, but V8 keeps the pages of garbage it has not collected yet, up to the old-space
 * cap: at about 375,000 invoices a backfill held 114 MiB of heap pages for 45 MiB of live objects (217 MiB
 * RSS, 132 MiB right after one full collection; docs/benchmarks.md). V8's own collections keep those
 * pages for reuse; its "last resort" collection (the one it runs before giving up on memory) compacts the
 * heap and gives free pages back to the system. The guard runs one when the RSS passes a mark, at most
 * once every `minGapMs` (longer while collections do not bring the RSS under the mark).
 *
 * Only node: built-ins may be imported here: the CLI starts it before the program is loaded.
 */

/** The RSS mark (MiB) above which a full collection runs; 0 turns the guard off. */
export const RSS_MARK_ENV = 'ERP_SYNC_RSS_MARK_MB';
/**
 * Default mark: under the 200 MiB a worker is sized for, with room for a burst between two collections
 * (at most one per MIN_GAP_MS; a worker at full speed climbs 20–40 MiB in that time). A worker's first
 * sync of 1,000,000 invoices peaked at 202 MiB with 170, 209 with 180 (docs/benchmarks.md).
 */
export const DEFAULT_RSS_MARK_MB = 170;
/** How often the RSS is read (process.memoryUsage.rss(): one read of /proc, no heap walk). */
export const CHECK_EVERY_MS = 1_000;
/** At most one forced collection per this long, however long the RSS stays over the mark. */
export const MIN_GAP_MS = 10_000;
/**
 * A collection that leaves the RSS over the mark found little garbage (the memory is in use, or native):
 * the next one waits twice as long, up to this, so a process that simply needs more does not pay a full
 * collection every 10 s. One that brings the RSS under the mark resets the wait.
 */
export const MAX_GAP_MS = 5 * 60_000;

export class RssMarkError extends Error {}

/** The mark from the environment: undefined when the guard is off (ERP_SYNC_RSS_MARK_MB=0). */
export function rssMarkMb(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[RSS_MARK_ENV]?.trim();
  if (!raw) return DEFAULT_RSS_MARK_MB;
  if (!/^\d+$/.test(raw))
    throw new RssMarkError(`${RSS_MARK_ENV} must be a whole number of MiB (0 = no forced collections), got "${raw}"`);
  const mark = Number(raw);
  return mark === 0 ? undefined : mark;
}

/** One full collection that gives free heap pages back to the system. */
export type Collect = () => void;

/** V8's last-resort collection, through its `gc` extension turned on at run time (it only adds a function). */
export function lastResortCollect(): Collect {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options: { type: 'major'; flavor: 'last-resort' }) => void;
  return () => gc({ type: 'major', flavor: 'last-resort' });
}

export interface MemoryGuardOptions {
  markMb: number;
  collect?: Collect;
  rss?: () => number;
  now?: () => number;
  minGapMs?: number;
  maxGapMs?: number;
}

export interface MemoryGuard {
  /** Reads the RSS; collects when it is over the mark and the last collection is old enough. True when it collected. */
  check(): boolean;
  /** Collections this guard ran. */
  readonly collections: number;
}

/** Collections run by every guard of this process (erpsync_memory_forced_collections_total). */
let processCollections = 0;
export function forcedCollections(): number {
  return processCollections;
}

/** The guard's rule, without a timer (startMemoryGuard's). */
export function memoryGuard({
  markMb,
  collect = lastResortCollect(),
  rss = () => process.memoryUsage.rss(),
  now = Date.now,
  minGapMs = MIN_GAP_MS,
  maxGapMs = MAX_GAP_MS,
}: MemoryGuardOptions): MemoryGuard {
  const markBytes = markMb * 2 ** 20;
  let last = -Infinity;
  let gap = minGapMs;
  let collections = 0;
  return {
    check() {
      if (rss() <= markBytes || now() - last < gap) return false;
      collect();
      last = now();
      collections++;
      processCollections++;
      gap = rss() > markBytes ? Math.min(gap * 2, maxGapMs) : minGapMs;
      return true;
    },
    get collections() {
      return collections;
    },
  };
}

/** The guard on a timer that does not keep the process alive; stop() ends it. */
export function startMemoryGuard(options: MemoryGuardOptions): MemoryGuard & { stop(): void } {
  const guard = memoryGuard(options);
  const timer = setInterval(() => guard.check(), CHECK_EVERY_MS);
  timer.unref();
  return Object.assign(guard, { stop: () => clearInterval(timer) });
}
