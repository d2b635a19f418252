import { z } from 'zod';

/**
 * The state of every Tally stream. Tally keeps no modification time: what changed is what has a higher
 * AlterID (https://help.tallysolutions.com/integration-with-tallyprime/; tally-database-loader's
 * incremental sync, https://github.com/dhananjay1405/tally-database-loader). The pipeline's checkpoint is an
 * instant (`cursor`, the inclusive lower bound of the changes to read, moved back by the lookback and by
 * repairs), so the stream keeps, beside it, what ties instants to AlterIDs:
 *
 * - `marks`: "ms:alterId ms:alterId …", oldest first, at most MAX_MARKS. A mark `t:a` says: every change
 *   made at or after instant t has an AlterID above a — the read took the company's $AltVchId (or
 *   $AltMstId) = a from an answer that had arrived before t. A read from cursor c starts after the
 *   AlterID of the latest mark at or before c; with none (a first sync, a cursor rewound past every
 *   mark), after 0: everything.
 * - `company`: the company the marks were taken in (another company's AlterIDs mean nothing here).
 * - `resume`: "base:done" and `resumeAt`, the cursor of the read that wrote it ("" for null) — that read
 *   started after AlterID `base` and handed over every AlterID up to `done`. A read from that very state
 *   (the pipeline restarting after a page it saved) resumes after `done`; any other cursor (the next
 *   run's, or one a repair rewound to read records again) ignores it.
 *
 * `initialState()` is `{cursor: null}`: a first sync reads every AlterID.
 */
export type State = {
  cursor: string | null;
  marks?: string;
  company?: string;
  resume?: string;
  resumeAt?: string;
};

export const State: z.ZodType<State> = z.strictObject({
  cursor: z.string().nullable(),
  marks: z
    .string()
    .regex(/^(\d+:\d+)( \d+:\d+)*$/, 'expected "ms:alterId" pairs')
    .optional(),
  company: z.string().optional(),
  resume: z
    .string()
    .regex(/^\d+:\d+$/, 'expected "base:done"')
    .optional(),
  resumeAt: z.string().optional(),
});

export const MAX_MARKS = 8;

export function initialState(from?: string): State {
  return { cursor: from ?? null };
}

export interface Mark {
  atMs: number;
  alterId: number;
}

export function marksOf(state: State): Mark[] {
  if (!state.marks) return [];
  return state.marks.split(' ').map((pair) => {
    const [atMs, alterId] = pair.split(':').map(Number) as [number, number];
    return { atMs, alterId };
  });
}

export function marksText(marks: readonly Mark[]): string {
  return marks
    .slice(-MAX_MARKS)
    .map((m) => `${m.atMs}:${m.alterId}`)
    .join(' ');
}

/** The AlterID a read from `cursorMs` starts after: the latest mark at or before the cursor, else 0. */
export function baseAlterId(marks: readonly Mark[], cursorMs: number | undefined): number {
  if (cursorMs === undefined) return 0;
  let base = 0;
  for (const m of marks) if (m.atMs <= cursorMs) base = Math.max(base, m.alterId);
  return base;
}

/**
 * A record's version: its AlterID written as an instant (epoch ms = AlterID, "1970-01-01T00:00:00.042Z" for
 * 42). Tally has no modification time to give; the pipeline compares versions as ISO strings, and these
 * order exactly as AlterIDs do (an AlterID stays far below the year 10000's epoch ms).
 */
export function versionOf(alterId: number): string {
  return new Date(alterId).toISOString();
}
