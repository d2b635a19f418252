import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '../../src/config.js';
import type { RunHistory } from '../../src/pipeline/run-history.js';
import type { SyncStatus } from '../../src/pipeline/sync-status.js';
import type { WebhookHealth } from '../../src/pipeline/webhook-health.js';
import { type BillingCompanyGuard, guardedByBillingCompany } from './billing-company-guard.js';
import { ADMISSION, ADMISSION_EXCEPTIONS, type AdmissionStep, QUEUES, type QueueName } from '../catalog.js';
import { skipWhileWebhooksCover } from './safety-net-schedule.js';
import { skipUnconfiguredSchedule } from './skip-unconfigured-schedule.js';
import { type RunQueue, withRunHistory } from './with-run-history.js';

export type JobProcessor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/**
 * The steps a job may pass before its processor runs, as jobs/catalog.ts (ADMISSION) lists them per job:
 * - `schedule-skip`: a job scheduler's job for a connection (or entity) the config no longer has
 *   completes as skipped (jobs/admission/skip-unconfigured-schedule.ts);
 * - `safety-net`: a scheduled pull of a connection whose webhooks carry its changes completes at once until
 *   its stretched schedule is due (jobs/admission/safety-net-schedule.ts);
 * - `run-history`: every run that starts leaves a run record, whatever its end (jobs/admission/with-run-history.ts);
 *   a targeted read of webhook events leaves none (the catalog's ADMISSION_EXCEPTIONS);
 * - `company-guard`: the jobs of a connection whose state belongs to another billing company are refused
 *   (jobs/admission/billing-company-guard.ts);
 * - `gate`: a paused connection's job is held (jobs/admission/connection-gate.ts);
 * - `slots`: at most `sync.maxJobsPerConnection` jobs of one connection run at once (jobs/define-job.ts).
 * The first three wrap the job before its payload is parsed (`admit`); `gate` and `slots` run in the
 * job's wrapper once its payload is parsed, so that their deferrals are the job's (its duration
 * histogram, its log line): a list names them after the others.
 */
export const WRAPPING_STEPS = ['schedule-skip', 'safety-net', 'run-history', 'company-guard'] as const;
export type WrappingStep = (typeof WRAPPING_STEPS)[number];
export const IN_JOB_STEPS = ['gate', 'slots'] as const;
export type InJobStep = (typeof IN_JOB_STEPS)[number];

const isWrapping = (s: AdmissionStep): s is WrappingStep => (WRAPPING_STEPS as readonly string[]).includes(s);
const isInJob = (s: AdmissionStep): s is InJobStep => !isWrapping(s);

/** What each wrapping step does to a queue's processor. */
export type WrappingSteps = Record<WrappingStep, (queue: QueueName, processor: JobProcessor) => JobProcessor>;

/**
 * Why a list of steps cannot be a job's admission (each step once, the in-job steps last), or undefined
 * when it can.
 */
export function admissionFault(steps: readonly AdmissionStep[]): string | undefined {
  if (new Set(steps).size !== steps.length) return 'a step is listed twice';
  const firstInJob = steps.findIndex(isInJob);
  if (firstInJob >= 0 && steps.slice(firstInJob).some(isWrapping))
    return `${steps.slice(firstInJob).find(isWrapping)} comes after ${steps[firstInJob]}, which runs once the payload is parsed`;
  return undefined;
}

/** The queue's admission as the catalog lists it, checked (a wrong list stops the worker from starting). */
export function admissionOf(queue: QueueName): readonly AdmissionStep[] {
  const steps = ADMISSION[queue];
  const fault = admissionFault(steps);
  if (fault) throw new Error(`the admission of ${queue} jobs (jobs/catalog.ts): ${fault}`);
  return steps;
}

/**
 * The queue's processor behind its wrapping steps, in the catalog's order (the first listed is the
 * outermost: the first a job meets). The in-job steps are the job wrapper's (`inJobAdmission`).
 */
export function admit(queue: QueueName, steps: WrappingSteps, job: JobProcessor): JobProcessor {
  const wrapping = admissionOf(queue).filter(isWrapping);
  return wrapping.reduceRight<JobProcessor>((inner, step) => excepting(step, inner, steps[step](queue, inner)), job);
}

/** The step, except for the jobs the catalog lets through it untouched (ADMISSION_EXCEPTIONS). */
function excepting(step: WrappingStep, plain: JobProcessor, stepped: JobProcessor): JobProcessor {
  const exempt = ADMISSION_EXCEPTIONS[step];
  if (!exempt) return stepped;
  return (job, token, signal) => (exempt(job.data) ? plain : stepped)(job, token, signal);
}

/**
 * The steps the job wrapper (jobs/define-job.ts) runs once the payload is parsed, in order. A queue the
 * catalog does not know (a test's own) gets both, as far as its deps provide them.
 */
export function inJobAdmission(queue: string): readonly InJobStep[] {
  return queue in ADMISSION ? admissionOf(queue as QueueName).filter(isInJob) : IN_JOB_STEPS;
}

/** What the wrapping steps read: the runtime itself, whose `config` a reload swaps (read at each job). */
export interface AdmissionRuntime {
  config: Pick<AppConfig, 'connections'>;
  logger: Logger;
  runHistory: Pick<RunHistory, 'record'>;
  syncStatus: Pick<SyncStatus, 'recordLastError' | 'read'>;
  webhookHealth: Pick<WebhookHealth, 'read'>;
}

/** The wrapping steps of a process: one billing-company guard for every queue. */
export function wrappingSteps(rt: AdmissionRuntime, billingCompany: Pick<BillingCompanyGuard, 'check'>): WrappingSteps {
  const guarded = guardedByBillingCompany(billingCompany, rt.logger, rt.syncStatus);
  return {
    'schedule-skip': (queue, p) => skipUnconfiguredSchedule(rt, queue, p),
    'safety-net': (_queue, p) => skipWhileWebhooksCover(rt, p),
    'run-history': (queue, p) => withRunHistory(runQueue(queue), rt, p),
    // A refused pull also records its stream's last error (what `erp-sync status` shows).
    'company-guard': (queue, p) => (queue === QUEUES.pull ? guarded.pull(p) : guarded.any(p)),
  };
}

function runQueue(queue: QueueName): RunQueue {
  if (queue === QUEUES.pull || queue === QUEUES.reconcile) return queue;
  throw new Error(`the admission of ${queue} jobs lists run-history, but only pulls and reconciles leave run records`);
}
