import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionState } from '../../src/pipeline/connection-state.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { ReconcileState, type ReconcileVerdict } from '../../src/pipeline/reconcile-state.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const CONNECTION = 'zoho-in';
const verdict = (v: string, detail?: string): ReconcileVerdict => ({
  at: '2026-11-27T10:00:00.000Z',
  window: '2026-11-26..2026-11-27',
  verdict: v,
  ...(detail ? { detail } : {}),
});

describe('reconcile state in Redis: drifted records and their resolutions', () => {
  const prefix = testPrefix('reconcile-state');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let state: ReconcileState;
  beforeAll(() => {
    redis = connect();
    state = new ReconcileState(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given verdicts, when the drifted records are asked for, then only those not ok, with ids holding "|" kept whole', async () => {
    await state.recordVerdicts(CONNECTION, 'invoices', [
      ['1', verdict('ok')],
      ['2', verdict('void_in_billing_only', 'voided in billing')],
      ['3|a', verdict('missing_in_billing,duplicate')],
    ]);
    const d = await state.drifted(CONNECTION);
    expect(d).toMatchObject({ scanned: 3, complete: true });
    expect(d.records.sort((a, b) => a.erpId.localeCompare(b.erpId))).toEqual([
      { entity: 'invoices', erpId: '2', verdict: verdict('void_in_billing_only', 'voided in billing') },
      { entity: 'invoices', erpId: '3|a', verdict: verdict('missing_in_billing,duplicate') },
    ]);
  });

  it('given more verdicts than the bound, then the walk stops near it and says it is not complete', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => [`m${i}`, verdict('ok')] as const);
    await state.recordVerdicts('big', 'invoices', many);
    const d = await state.drifted('big', 1000);
    expect(d.complete).toBe(false);
    expect(d.scanned).toBeGreaterThanOrEqual(1000);
    expect(d.scanned).toBeLessThan(3000);
  });

  it('given a resolution, then it is read back beside the last run, and a rebind to another company drops it with the verdicts', async () => {
    await state.recordRun(CONNECTION, { at: 'x', from: '2026-11-26', to: '2026-11-27', counts: { duplicate: 1 } });
    const r = { by: 'ops', at: 1, note: 'checked', version: '2026-11-01T00:00:00.000Z' };
    await state.resolve(CONNECTION, 'invoices', '3|a', r);
    expect(await state.resolutions(CONNECTION)).toEqual(new Map([['invoices|3|a', r]]));
    expect((await state.lastRun(CONNECTION))?.counts).toEqual({ duplicate: 1 });

    await new ConnectionState(redis, keys).resetForCompany(CONNECTION, ['invoices'], {
      company: 'other',
      keyId: 'k',
      since: 1,
    });
    expect(await state.resolutions(CONNECTION)).toEqual(new Map());
    expect((await state.drifted(CONNECTION)).records).toEqual([]);
    expect(await state.lastRun(CONNECTION)).toBeUndefined();
  });
});
