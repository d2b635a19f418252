import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../support/cli.js';

/**
 * Every command with a range refuses it reversed, the same way (cli/ordered-range.ts), before it reads
 * anything: exit 2 and one line naming both flags, never an empty result ("0 written", exit 0).
 */
const CONFIG = ['--config', 'examples/sandbox.yaml'];

describe('a reversed range, for every command that takes one', () => {
  it('given history --since 2026-12-01 --until 2026-11-01, then it exits 2 saying --since is after --until (not "0 written")', async () => {
    const r = await runCli([
      'history',
      '--connection',
      'zoho-in',
      '--since',
      '2026-12-01',
      '--until',
      '2026-11-01',
      ...CONFIG,
    ]);
    expect(expectOneLineError(r)).toBe(
      'erp-sync: --since 2026-12-01T00:00:00.000Z is after --until 2026-11-01T00:00:00.000Z',
    );
  });

  it('given history --until equal to --since (an exclusive end: an empty range), then it exits 2 saying the range is empty', async () => {
    const r = await runCli([
      'history',
      '--connection',
      'zoho-in',
      '--since',
      '2026-11-01',
      '--until',
      '2026-11-01T05:30:00+05:30',
      ...CONFIG,
    ]);
    expect(expectOneLineError(r)).toBe(
      'erp-sync: --until 2026-11-01T00:00:00.000Z equals --since (--until is exclusive): the range is empty',
    );
  });

  it('given reconcile --from after --to, then it exits 2 with the same sentence as backfill', async () => {
    const r = await runCli([
      'reconcile',
      '--connection',
      'zoho-in',
      '--from',
      '2026-12-01',
      '--to',
      '2026-11-01',
      ...CONFIG,
    ]);
    expect(expectOneLineError(r)).toBe('erp-sync: --from 2026-12-01 is after --to 2026-11-01');
  });

  it('given backfill --from after --to, then it exits 2 with the same sentence', async () => {
    const r = await runCli([
      'backfill',
      '--connection',
      'zoho-in',
      '--from',
      '2026-12-01',
      '--to',
      '2026-11-01',
      ...CONFIG,
    ]);
    expect(expectOneLineError(r)).toBe('erp-sync: --from 2026-12-01 is after --to 2026-11-01');
  });
});
