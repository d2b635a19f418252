import { describe, expect, it } from 'vitest';
import { inList, quote, selectStatement, timestampLiteral } from '../../../../connectors/quickbooks/streams/query.js';
import { parseQuery } from '../../../../sandbox/quickbooks/query-parser.js';

describe('QuickBooks query statements', () => {
  it("given a value with a quote or backslash, then it is escaped as \\' and \\\\ and reads back unchanged", () => {
    expect(quote("Amy's Bird Sanctuary")).toBe("'Amy\\'s Bird Sanctuary'");
    const tricky = "O'Brien \\ Sons' 'Ltd'";
    const q = parseQuery(selectStatement({ entity: 'Customer', where: [`DisplayName = ${quote(tricky)}`] }));
    expect(q.where[0]).toEqual({ field: 'DisplayName', op: '=', value: tricky });
  });

  it('given an instant, then a whole-second literal with an explicit offset, truncated (never later than the instant)', () => {
    expect(timestampLiteral('2025-02-10T04:49:47.999Z')).toBe("'2025-02-10T04:49:47+00:00'");
  });

  it('given the read statement, then AND-only conditions, ORDERBY, STARTPOSITION and MAXRESULTS ≤ 1000', () => {
    expect(
      selectStatement({
        entity: 'Invoice',
        where: [inList('Id', ['1', '2']), "TxnDate >= '2025-01-01'"],
        orderBy: 'MetaData.LastUpdatedTime ASC',
        startPosition: 1,
        maxResults: 1000,
      }),
    ).toBe(
      "SELECT * FROM Invoice WHERE Id IN ('1', '2') AND TxnDate >= '2025-01-01' ORDERBY MetaData.LastUpdatedTime ASC STARTPOSITION 1 MAXRESULTS 1000",
    );
    expect(() => selectStatement({ entity: 'Invoice', maxResults: 1001 })).toThrow(RangeError);
  });
});
