import { describe, expect, it } from 'vitest';
import { upsertSchedulers } from '../../app/worker-service.js';
import { connectorFor } from '../../connectors/registry.js';
import { parseConfig } from '../../src/config.js';

/** The job schedulers a config asks for: a pull per stream, and a deletes sweep per Tally stream. */
describe('upsertSchedulers', () => {
  const schedulersOf = async (connections: Array<Record<string, unknown>>) => {
    const config = parseConfig({ billing: { url: 'http://127.0.0.1:1', apiKey: 'k' }, connections });
    const added: Array<{ id: string; every: number; data: unknown }> = [];
    const pull = {
      upsertJobScheduler: async (id: string, repeat: { every: number }, template: { data: unknown }) => {
        added.push({ id, every: repeat.every, data: template.data });
        return undefined as never;
      },
    };
    const connection = (id: string) => ({
      connector: connectorFor(config.connections.find((c) => c.id === id)!.system),
    });
    const n = await upsertSchedulers({ config, queues: { pull }, options: { pull: {} }, connection } as never);
    return { n, added };
  };

  it('given a Tally connection and a Zoho Books one, then only Tally streams get a deletes sweep, hourly by default', async () => {
    const { n, added } = await schedulersOf([
      { id: 'zoho-in', system: 'zoho-books', originSource: 'EXTERNAL_SYSTEM_A', entities: ['invoices'] },
      { id: 'tally-in', system: 'tally', originSource: 'OTHER', entities: ['invoices', 'customers'] },
    ]);
    const sweeps = added.filter((s) => s.id.startsWith('deletes-'));
    expect(sweeps).toEqual([
      {
        id: 'deletes-tally-in-invoices',
        every: 3_600_000,
        data: { connectionId: 'tally-in', entity: 'invoices', deletes: true },
      },
      {
        id: 'deletes-tally-in-customers',
        every: 3_600_000,
        data: { connectionId: 'tally-in', entity: 'customers', deletes: true },
      },
    ]);
    expect(n).toBe(added.length);
  });

  it('given schedule.deletesEverySeconds, then it sets the sweep; 0 turns it off', async () => {
    const tally = { id: 'tally-in', system: 'tally', originSource: 'OTHER', entities: ['invoices'] };
    const every = await schedulersOf([{ ...tally, schedule: { deletesEverySeconds: 600 } }]);
    expect(every.added.find((s) => s.id === 'deletes-tally-in-invoices')?.every).toBe(600_000);
    const off = await schedulersOf([{ ...tally, schedule: { deletesEverySeconds: 0 } }]);
    expect(off.added.map((s) => s.id)).toEqual(['pull-tally-in-invoices']);
  });
});
