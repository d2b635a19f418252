/** Where progress goes: stderr, or a fake with a chosen isTTY in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

export interface ProgressUpdate {
  /** Units done and in all (a backfill's windows). */
  done: number;
  total: number;
  /** Records handled so far: a running count, the base of the rate. */
  records: number;
  /** What else the reader should know (upserts pending, billing down), appended as is. */
  detail?: string;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** The clock (ms): injected by tests, so they need not wait. */
  now?: () => number;
  /** Without a TTY, the least time between two progress lines. @defaultValue 30 s */
  lineEveryMs?: number;
  /** What `done`/`total` count. @defaultValue windows */
  unit?: string;
}

/** "42s", "3m05s", "1h02m": short enough for a progress line. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Progress of a long command on stderr. On a TTY: one bar, redrawn in place, with units done / total,
 * the records so far, their rate and an ETA (from the units' pace: the records' total is not known
 * until the end). Without a TTY (a log file, CI): a line only when something changed, at most every
 * `lineEveryMs`, so a log is not flooded with the same line. Both end with a summary line.
 */
export function progressReporter(label: string, options: ProgressOptions = {}) {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const lineEveryMs = options.lineEveryMs ?? 30_000;
  const unit = options.unit ?? 'windows';
  const started = now();
  let latest: ProgressUpdate = { done: 0, total: 0, records: 0 };
  let printed: string | undefined;
  let printedAt = -Infinity;
  let drawn = false;

  const rate = (elapsedMs: number) => (elapsedMs > 0 ? latest.records / (elapsedMs / 1000) : 0);
  const describe = (elapsedMs: number) => {
    const { done, total, records, detail } = latest;
    const eta = done > 0 && done < total ? ` · ETA ${formatDuration((elapsedMs * (total - done)) / done)}` : '';
    return `${done}/${total} ${unit} · ${records} records · ${rate(elapsedMs).toFixed(1)} records/s${eta}${detail ? ` ${detail}` : ''}`;
  };

  return {
    update(u: ProgressUpdate): void {
      latest = u;
      const t = now();
      if (stream.isTTY) {
        const pct = u.total > 0 ? Math.min(100, Math.floor((u.done / u.total) * 100)) : 0;
        const width = 24;
        const fill = Math.round((pct / 100) * width);
        stream.write(
          `\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% ${describe(t - started)}\x1b[K`,
        );
        drawn = true;
        return;
      }
      // "Changed" ignores the rate and ETA, which move with the clock alone.
      const state = `${u.done}/${u.total} ${u.records} ${u.detail ?? ''}`;
      if (state === printed || t - printedAt < lineEveryMs) return;
      printed = state;
      printedAt = t;
      stream.write(`${label}: ${describe(t - started)}\n`);
    },
    /** The summary line: always written, TTY or not; `finished` false when the work stopped short (an error). */
    end(finished = true): void {
      const elapsed = now() - started;
      if (drawn) stream.write('\n');
      stream.write(
        `${label}: ${finished ? 'finished' : 'stopped at'} ${latest.done}/${latest.total} ${unit}, ${latest.records} records in ${formatDuration(elapsed)} (${rate(elapsed).toFixed(1)} records/s)\n`,
      );
    },
  };
}
