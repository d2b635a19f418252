import type { PauseReport } from './pause-connection.js';
import type { RebindMode, RebindResult } from './rebind-connection.js';
import type { ResumeReport } from './resume-connection.js';

/** "invoices overdue" out of the parts a selection named, or nothing. */
const named = (parts: ReadonlyArray<string | undefined>): string => {
  const what = parts.filter(Boolean).join(' ');
  return what ? ` (${what})` : '';
};

/**
 * Every state-changing action a person can take, by its name in the audit log and how its entry's detail
 * reads. The API's routes, the console (through the API) and the command line name an action and write
 * its detail from here, through `audited` (audited.ts), so one action reads the same whoever took it.
 */
export const AUDITED = {
  pause: {
    action: 'connections.pause',
    detail: (r: Pick<PauseReport, 'changed'>, reason?: string) =>
      r.changed ? `paused${reason ? `: ${reason}` : ''}` : 'already paused',
  },
  resume: {
    action: 'connections.resume',
    detail: (r: Pick<ResumeReport, 'pause' | 'released'>) =>
      r.pause ? `resumed; released ${r.released} held job(s)` : 'was not paused',
  },
  sync: {
    action: 'connections.sync',
    detail: (pulls: ReadonlyArray<{ entity: string }>) => `pulling ${pulls.map((p) => p.entity).join(', ')}`,
    /** A paused connection is not pulled: a conflict. */
    paused: (connection: string) => `connection "${connection}" is paused: resume it first`,
  },
  check: { action: 'connections.check' },
  replay: {
    action: 'quarantine.replay',
    detail: (reason: string) => `replayed (${reason})`,
  },
  replaySelection: {
    action: 'quarantine.replay-selection',
    detail: (matched: number, entity?: string, reason?: string) =>
      `replayed ${matched} record(s)${named([entity, reason])}`,
    dryRun: (matched: number) => `dry run: ${matched} record(s)`,
  },
  purge: {
    action: 'quarantine.purge',
    detail: (purged: number, entity?: string, erpId?: string) =>
      `purged ${purged} record(s)${named([entity && erpId ? `${entity}/${erpId}` : entity])}`,
  },
  rebind: {
    action: 'connections.rebind',
    detail: (r: Pick<RebindResult, 'from' | 'to' | 'replayed' | 'removedJobs'>, mode: RebindMode) =>
      mode === 'same-company'
        ? `same company: bound to "${r.to}" (was "${r.from}"); ${r.replayed ?? 0} record(s) enqueued again`
        : `new company: state of "${r.from}" cleared, ${r.removedJobs ?? 0} queued upsert(s) removed; bound to "${r.to}"`,
  },
  approve: { action: 'review.approve' },
  reject: { action: 'review.reject' },
  reconcile: {
    action: 'reconciliations.run',
    detail: (
      window: { from: string; to: string } | { lastDays: number } | { history: true },
      how: { deep?: boolean; repair?: boolean },
      jobId: string,
    ) => {
      const span =
        'lastDays' in window
          ? `last ${window.lastDays} day(s)`
          : 'history' in window
            ? 'history'
            : `${window.from}..${window.to}`;
      return `reconcile ${span}${how.deep ? ' deep' : ''}${how.repair ? ' repair' : ''}: job ${jobId}`;
    },
  },
  resolve: {
    action: 'reconciliations.resolve',
    detail: (kinds: readonly string[], note: string) => `resolved ${kinds.join(', ')}: ${note}`,
    /** The record, as the refusals below name it. */
    what: (connection: string, entity: string, erpId: string) => `${entity}/${erpId} of ${connection}`,
    /** Nothing to resolve: not found. */
    notDrifted: (what: string) => `${what}: the last reconciliation found no drift on it`,
    /** Drift a repair fixes: a conflict. */
    fixable: (what: string, kinds: readonly string[]) =>
      `${what}: its drift (${kinds.join(', ')}) is fixed by a sync: run a reconciliation with repair`,
  },
  create: {
    action: 'connections.create',
    detail: (company: string | null, webhookSecret: boolean) =>
      `created for company ${company ?? '?'}${webhookSecret ? '; webhook secret generated' : ''}`,
  },
  change: {
    action: 'connections.change',
    detail: (keys: readonly string[]) => `changed ${keys.length ? keys.join(', ') : 'nothing'}`,
  },
  remove: {
    action: 'connections.remove',
    detail: (r: {
      schedulers: readonly string[];
      removedJobs: number;
      purgedKeys: number | null;
      purgeAfter: string | null;
    }) =>
      `removed: ${r.schedulers.length} scheduler(s), ${r.removedJobs} queued job(s); ${r.purgedKeys === null ? `state kept until ${r.purgeAfter}` : `state purged (${r.purgedKeys} key(s))`}`,
  },
  authorizeStart: { action: 'connections.authorize-start' },
  authorize: { action: 'connections.authorize' },
} as const;
