import type { EntityName } from '../../src/connector/entities.js';
import type { QuotaProfile } from '../../src/connector/quota-profile.js';
import type { ReadContext } from '../../src/connector/types.js';
import type { Settings } from './settings.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

const STREAMS = { invoices: invoicesStream, 'credit-notes': creditNotesStream, customers: customersStream };

/**
 * Tally's requests as its reads make them (streams/read.ts, streams/lookups.ts). Tally bills nothing and
 * limits nothing but one request at a time; the figures size the schedule. An idle run is one request
 * (the company's AlterIDs); lookups are two (the company, its tax ledgers); a first sync is that one plus
 * one request per range of `rangeSize` AlterIDs (a range holds the stream's records and others': this
 * counts the stream's own).
 */
export const quotaProfile: QuotaProfile<Settings> = {
  listCallsPerRun: () => 1,
  lookupCalls: () => 2,
  lookupsCacheSeconds: (settings) => settings.lookupsCacheSeconds,
  firstSyncCalls: (_entity, records, settings) => 1 + Math.max(1, Math.ceil(records / settings.rangeSize)),
  countRecords: async (ctx, entity: EntityName) => {
    let records = 0;
    let calls = 1;
    for await (const ids of STREAMS[entity].listIds!(ctx as ReadContext<Settings>)) {
      records += ids.length;
      calls++;
    }
    return { records, calls };
  },
};
