import { describe, expect, it } from 'vitest';
import {
  collectWarnings,
  isQuarantineReasonCode,
  mapFail,
  mapOk,
  QUARANTINE_REASON_CODES,
} from '../../src/mapping/quarantine-reason.js';

describe('quarantine reasons and MapResult', () => {
  it('given the reason list, then it holds exactly the seven codes the pipeline knows', () => {
    expect([...QUARANTINE_REASON_CODES].sort()).toEqual([
      'AMOUNTS_INCONSISTENT',
      'FX_SUSPECT',
      'FX_UNDERIVABLE',
      'INVALID_FIELD',
      'MISSING_FIELD',
      'SCHEMA_INVALID',
      'UNSUPPORTED',
    ]);
  });

  it.each([
    ['FX_SUSPECT', true],
    ['SCHEMA_INVALID', true],
    ['fx_suspect', false],
    ['SYNC_ERR_REJECTED', false],
    [42, false],
  ])('given %j, when checked, then isQuarantineReasonCode is %s', (value, expected) => {
    expect(isQuarantineReasonCode(value)).toBe(expected);
  });

  it('given no or empty warnings, when mapOk builds a success, then the warnings key is absent', () => {
    expect(mapOk(1)).toEqual({ ok: true, value: 1 });
    expect('warnings' in mapOk(1, [])).toBe(false);
    expect(mapOk(1, ['w'])).toEqual({ ok: true, value: 1, warnings: ['w'] });
  });

  it('given details, when mapFail builds a failure, then only the given details are set', () => {
    expect(mapFail('MISSING_FIELD', 'total is missing')).toEqual({
      ok: false,
      reason: 'MISSING_FIELD',
      message: 'total is missing',
    });
    expect(mapFail('SCHEMA_INVALID', 'bad', { field: 'invoice.total', issues: ['invoice.total: x'] })).toEqual({
      ok: false,
      reason: 'SCHEMA_INVALID',
      message: 'bad',
      field: 'invoice.total',
      issues: ['invoice.total: x'],
    });
  });

  it('given several step results, when warnings are collected, then they come out in order', () => {
    expect(collectWarnings(mapOk(1, ['a']), undefined, mapOk(2), { warnings: ['b', 'c'] })).toEqual(['a', 'b', 'c']);
  });
});
