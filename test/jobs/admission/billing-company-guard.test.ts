import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingCompanyGuard } from '../../../jobs/admission/billing-company-guard.js';
import type { ConnectionBilling } from '../../../jobs/runtime.js';
import { BillingCompanyChangedError } from '../../../src/errors/index.js';
import { createLogger } from '../../../src/observability/logger.js';
import { BillingCompanies } from '../../../src/pipeline/billing-companies.js';
import { Checkpoints } from '../../../src/pipeline/checkpoints.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { Ledger } from '../../../src/pipeline/ledger.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

/** The guard on real Redis stores; which company each connection's key names is set per test. */
describe('billing company guard: a connection writes to the company its state belongs to', () => {
  const prefix = testPrefix('company-guard');
  const keys = stateKeys(prefix);
  const DEFAULT = { company: 'key-0000aaaa', keyId: '0000aaaa' };
  let redis: Redis;
  let companies: BillingCompanies;
  let ledger: Ledger;
  let checkpoints: Checkpoints;
  const configured = new Map<string, { company: string; keyId: string }>();
  const guard = (cacheMs = 0) =>
    billingCompanyGuard(
      {
        logger: createLogger({ level: 'silent', format: 'json' }),
        connection: (id) => ({ billing: configured.get(id) as ConnectionBilling }),
        defaultCompany: DEFAULT,
        billingCompanies: companies,
        ledger,
        checkpoints,
      },
      cacheMs,
    );
  beforeAll(() => {
    redis = connect();
    companies = new BillingCompanies(redis, keys);
    ledger = new Ledger(redis, keys);
    checkpoints = new Checkpoints(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a new connection (no state), when its first job is checked, then it is bound to the company its key names', async () => {
    configured.set('fresh', { company: 'globex', keyId: '1111bbbb' });
    expect(await guard().status('fresh')).toEqual({ configured: 'globex', boundTo: null, refused: false });
    await guard().check('fresh');
    expect(await companies.get('fresh')).toMatchObject({ company: 'globex', keyId: '1111bbbb' });
  });

  it('given state written before companies were recorded, then it belongs to the default company: on the default key it goes on, on another company it is refused', async () => {
    await ledger.put('legacy-default', 'invoices', 'INV-1', {
      hash: 'h',
      version: '2025-01-01T00:00:00.000Z',
      billingId: 'inv.legacy-default.INV-1',
      writtenAt: 1,
    });
    configured.set('legacy-default', DEFAULT);
    await guard().check('legacy-default');
    expect(await companies.get('legacy-default')).toMatchObject(DEFAULT);

    await checkpoints.save('legacy-moved', 'invoices', { cursor: '2025-06-01T00:00:00.000Z' });
    configured.set('legacy-moved', { company: 'globex', keyId: '1111bbbb' });
    expect(await guard().status('legacy-moved')).toEqual({
      configured: 'globex',
      boundTo: DEFAULT.company,
      refused: true,
    });
    await expect(guard().check('legacy-moved')).rejects.toBeInstanceOf(BillingCompanyChangedError);
    expect(await companies.get('legacy-moved')).toMatchObject({ company: DEFAULT.company });
  });

  it('given a bound connection whose key now names another company, then every check refuses until the binding changes, and the next check after it passes', async () => {
    configured.set('moved', { company: 'acme', keyId: '2222cccc' });
    const g = guard(60_000);
    await g.check('moved');
    configured.set('moved', { company: 'globex', keyId: '1111bbbb' });
    // A process that found it in order keeps that answer for its cache time (one GET per connection per
    // cacheMs, not per job); a process checking now refuses, and at every check after.
    await expect(g.check('moved')).resolves.toBeUndefined();
    const other = guard(60_000);
    const err = await other.check('moved').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingCompanyChangedError);
    expect((err as Error).message).toContain(
      'its sync state was written for billing company "acme", but its billing key is now company "globex"\'s',
    );
    await expect(other.check('moved')).rejects.toBeInstanceOf(BillingCompanyChangedError);
    // A person's decision (erp-sync state rebind) is seen at once: refusals are not remembered.
    await companies.set('moved', { company: 'globex', keyId: '1111bbbb', since: Date.now() });
    await expect(other.check('moved')).resolves.toBeUndefined();
  });

  it('given the same company with another key (a rotated key, named alike), then it goes on and the new key is recorded', async () => {
    configured.set('rotated', { company: 'acme', keyId: '2222cccc' });
    await guard().check('rotated');
    configured.set('rotated', { company: 'acme', keyId: '3333dddd' });
    await guard().check('rotated');
    expect(await companies.get('rotated')).toMatchObject({ company: 'acme', keyId: '3333dddd' });
  });
});
