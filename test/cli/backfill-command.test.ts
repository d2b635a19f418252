import { describe, expect, it } from 'vitest';
import { addDays, utcDate } from '../../src/billing/dates.js';
import { expectOneLineError, runCli } from '../support/cli.js';

describe('erp-sync backfill arguments', () => {
  it('given --to far in the future, when the backfill is asked for, then it exits 2 naming the latest date allowed, before any vendor call', async () => {
    const latest = addDays(utcDate(Date.now()), 1);
    const r = await runCli([
      'backfill',
      '--connection',
      'zoho-in',
      '--from',
      '2025-01-01',
      '--to',
      '2099-01-01',
      '--config',
      'examples/sandbox.yaml',
    ]);
    expect(expectOneLineError(r)).toBe(
      `erp-sync: --to 2099-01-01 is in the future (latest: ${latest}); post-dated documents are synced by the incremental pull`,
    );
  });

  it('given --from after --to, then it exits 2 saying so', async () => {
    const r = await runCli([
      'backfill',
      '--connection',
      'zoho-in',
      '--from',
      '2025-02-01',
      '--to',
      '2025-01-01',
      '--config',
      'examples/sandbox.yaml',
    ]);
    expect(expectOneLineError(r)).toBe('erp-sync: --from 2025-02-01 is after --to 2025-01-01');
  });
});
