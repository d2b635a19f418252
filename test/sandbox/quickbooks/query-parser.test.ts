import { describe, expect, it } from 'vitest';
import { executeQuery } from '../../../sandbox/quickbooks/query-executor.js';
import { parseQuery, QueryError } from '../../../sandbox/quickbooks/query-parser.js';

const rows = [
  {
    Id: '2',
    DocNumber: 'INV-2',
    TxnDate: '2025-02-02',
    CustomerRef: { value: '7' },
    TotalAmt: 200,
    MetaData: { CreateTime: '2025-02-02T10:00:00+05:30', LastUpdatedTime: '2025-02-03T10:00:00+05:30' },
  },
  {
    Id: '10',
    DocNumber: 'INV-10',
    TxnDate: '2025-02-10',
    CustomerRef: { value: '8' },
    TotalAmt: 1000,
    MetaData: { CreateTime: '2025-02-10T10:00:00+05:30', LastUpdatedTime: '2025-02-03T04:30:00Z' },
  },
  {
    Id: '3',
    DocNumber: "O'Brien-3",
    TxnDate: '2025-02-03',
    CustomerRef: { value: '7' },
    TotalAmt: 300,
    MetaData: { CreateTime: '2025-02-03T10:00:00+05:30', LastUpdatedTime: '2025-02-01T00:00:00-08:00' },
  },
];
const customers = [
  {
    Id: '1',
    DisplayName: "Amy's Bird Sanctuary",
    Active: true,
    MetaData: { LastUpdatedTime: '2025-01-01T00:00:00+05:30' },
  },
  {
    Id: '2',
    DisplayName: 'Dormant Traders',
    Active: false,
    MetaData: { LastUpdatedTime: '2025-01-02T00:00:00+05:30' },
  },
];

const run = (statement: string, data: ReadonlyArray<Record<string, unknown>> = rows) =>
  executeQuery(parseQuery(statement), data, 330);
const ids = (statement: string, data?: ReadonlyArray<Record<string, unknown>>) => {
  const r = run(statement, data).QueryResponse;
  const entity = Object.keys(r).find((k) => Array.isArray(r[k]));
  return entity ? (r[entity] as Array<{ Id: string }>).map((x) => x.Id) : [];
};
const errorOf = (statement: string, data?: ReadonlyArray<Record<string, unknown>>) => {
  try {
    run(statement, data);
    return undefined;
  } catch (e) {
    if (e instanceof QueryError) return e.code;
    throw e;
  }
};

describe('QBO sandbox query language', () => {
  it('given the incremental statement, then timestamps compare as instants across offsets, ordered by the cursor, ties by Id', () => {
    // 2025-02-03T10:00+05:30 = 04:30Z, the same instant as row 10: the tie goes to the lower Id.
    expect(
      ids(
        "SELECT * FROM Invoice WHERE MetaData.LastUpdatedTime >= '2025-02-01T08:00:00+00:00' ORDERBY MetaData.LastUpdatedTime STARTPOSITION 1 MAXRESULTS 1000",
      ),
    ).toEqual(['3', '2', '10']);
    expect(
      ids(
        "SELECT * FROM Invoice WHERE Metadata.LastUpdatedTime > '2025-02-01T08:00:00Z' ORDER BY Metadata.LastUpdatedTime DESC",
      ),
    ).toEqual(['2', '10']);
  });

  it('given STARTPOSITION and MAXRESULTS, then 1-based pages; past the end, the empty QueryResponse {}', () => {
    expect(ids('SELECT * FROM Invoice ORDERBY Id STARTPOSITION 2 MAXRESULTS 1')).toEqual(['3']);
    expect(run('SELECT * FROM Invoice ORDERBY Id STARTPOSITION 2 MAXRESULTS 1').QueryResponse).toEqual({
      Invoice: [rows[2]],
      startPosition: 2,
      maxResults: 1,
    });
    expect(run('SELECT * FROM Invoice STARTPOSITION 4 MAXRESULTS 10').QueryResponse).toEqual({});
  });

  it("given quoted values with \\' escapes, IN lists, LIKE, AND and dates, then they filter as QBO does", () => {
    expect(ids("SELECT * FROM Invoice WHERE DocNumber = 'O\\'Brien-3'")).toEqual(['3']);
    expect(ids("SELECT * FROM Customer WHERE DisplayName = 'Amy\\'s Bird Sanctuary'", customers)).toEqual(['1']);
    expect(ids("SELECT * FROM Invoice WHERE Id IN ('2', '10') ORDERBY Id")).toEqual(['2', '10']);
    expect(
      ids("SELECT * FROM Invoice WHERE DocNumber LIKE 'INV%' AND TxnDate >= '2025-02-05' AND TxnDate <= '2025-02-28'"),
    ).toEqual(['10']);
    expect(ids("SELECT * FROM Invoice WHERE CustomerRef = '7' AND TotalAmt > 250")).toEqual(['3']);
  });

  it('given a Customer query, then inactive customers only with Active IN (true, false)', () => {
    expect(ids('SELECT * FROM Customer', customers)).toEqual(['1']);
    expect(ids('SELECT * FROM Customer WHERE Active IN (true, false)', customers)).toEqual(['1', '2']);
    expect(ids('SELECT * FROM Customer WHERE Active = false', customers)).toEqual(['2']);
  });

  it('given count(*) or a field list, then the count, or only those fields', () => {
    expect(run("SELECT count(*) FROM Invoice WHERE TxnDate >= '2025-02-03'").QueryResponse).toEqual({ totalCount: 2 });
    expect(
      run('SELECT Id, MetaData.CreateTime FROM Invoice ORDERBY MetaData.CreateTime MAXRESULTS 1').QueryResponse,
    ).toEqual({
      Invoice: [{ Id: '2', MetaData: { CreateTime: '2025-02-02T10:00:00+05:30' } }],
      startPosition: 1,
      maxResults: 1,
    });
  });

  it('given OR, a syntax error or an unterminated string, then 4000 (QueryParserError)', () => {
    expect(errorOf("SELECT * FROM Invoice WHERE Id = '1' OR Id = '2'")).toBe('4000');
    expect(errorOf('SELECT * Invoice')).toBe('4000');
    expect(errorOf("SELECT * FROM Invoice WHERE DocNumber = 'abc")).toBe('4000');
    expect(errorOf("SELECT * FROM Invoice WHERE Id != '1'")).toBe('4000');
  });

  it('given an unsupported property, a wrong-case entity, MAXRESULTS over 1000 or a bad timestamp, then 4001 (QueryValidationError), not an empty result', () => {
    expect(errorOf("SELECT * FROM Invoice WHERE Colour = 'red'")).toBe('4001');
    expect(errorOf('SELECT * FROM Invoice ORDERBY Colour')).toBe('4001');
    expect(errorOf('SELECT * FROM invoice')).toBe('4001');
    expect(errorOf('SELECT * FROM Invoice MAXRESULTS 1001')).toBe('4001');
    expect(errorOf("SELECT * FROM Invoice WHERE MetaData.LastUpdatedTime >= 'yesterday'")).toBe('4001');
  });
});
