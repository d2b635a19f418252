import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { admissionFault, admit, type JobProcessor, type WrappingSteps } from '../../../jobs/admission/admission.js';
import { ADMISSION, type AdmissionStep, QUEUES, type QueueName } from '../../../jobs/catalog.js';
import { defineJob } from '../../../jobs/define-job.js';
import { createLogger } from '../../../src/observability/logger.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import type { LeaseKeeper } from '../../../src/pipeline/lease-keeper.js';

/**
 * The chain a job passes before its processor runs, per queue: the catalog's list (jobs/catalog.ts,
 * ADMISSION) is the order, `admit` builds the wrapping steps from it and the job wrapper
 * (jobs/define-job.ts) runs the in-job steps. Recording steps stand in for the real ones: the order is
 * what is specified here, each step's own decisions are specified in its own test.
 */
const CHAIN: Record<QueueName, AdmissionStep[]> = {
  pull: ['schedule-skip', 'safety-net', 'run-history', 'company-guard', 'gate', 'slots'],
  upsert: ['company-guard', 'gate'],
  backfill: ['company-guard'],
  reconcile: ['schedule-skip', 'run-history', 'company-guard', 'gate', 'slots'],
  sweep: [],
};

const logger = createLogger({ level: 'silent', format: 'json' });
const aJob = (queue: QueueName) =>
  ({ id: 'job-1', name: queue, queueName: queue, data: { connectionId: 'c1' }, attemptsMade: 0, opts: {} }) as Job;

/** Runs one job of the queue through its whole admission, recording each step as it is passed. */
async function passedSteps(queue: QueueName): Promise<string[]> {
  const passed: string[] = [];
  const recording = (step: string) => (_queue: QueueName, inner: JobProcessor) => async (job: Job, token?: string) => {
    passed.push(step);
    return inner(job, token);
  };
  const steps: WrappingSteps = {
    'schedule-skip': recording('schedule-skip'),
    'safety-net': recording('safety-net'),
    'run-history': recording('run-history'),
    'company-guard': recording('company-guard'),
  };
  const deps = {
    logger,
    metrics: createMetrics(),
    leases: { track: () => () => {} } as unknown as LeaseKeeper,
    connectionGate: { admit: async () => void passed.push('gate') },
    jobSlots: {
      slots: { take: async () => (passed.push('slots'), true), release: async () => {} },
      max: 1,
      leaseMs: 30_000,
      retryMs: 1_000,
    },
  };
  const job = defineJob(queue, z.looseObject({ connectionId: z.string() }), deps, async () => passed.push('processor'));
  await admit(queue, steps, job)(aJob(queue), 'token');
  return passed;
}

describe('admission: the steps each job passes before its processor runs, in the catalog’s order', () => {
  it.each(Object.values(QUEUES))('the catalog lists the admission of %s jobs as specified', (queue) => {
    expect(ADMISSION[queue]).toEqual(CHAIN[queue]);
  });

  it.each(Object.values(QUEUES))(
    'given a %s job, when a worker runs it, then it passes its steps in the listed order, then its processor',
    async (queue) => {
      expect(await passedSteps(queue)).toEqual([...CHAIN[queue], 'processor']);
    },
  );

  it.each<[string, AdmissionStep[], string | undefined]>([
    ['every step, wrapping ones first', ['schedule-skip', 'run-history', 'company-guard', 'gate', 'slots'], undefined],
    ['no step', [], undefined],
    ['the slots before the gate', ['slots', 'gate'], undefined],
    ['a step twice', ['gate', 'gate'], 'a step is listed twice'],
    [
      'a wrapping step after an in-job one',
      ['gate', 'company-guard'],
      'company-guard comes after gate, which runs once the payload is parsed',
    ],
  ])('given %s in a list, then the list is taken or refused with its reason', (_given, steps, fault) => {
    expect(admissionFault(steps)).toBe(fault);
  });
});
