import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../src/http/refusal-log.js';
import { createLogger } from '../../src/observability/logger.js';

/** A JSON logger whose lines land in `lines`. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', format: 'json', destination }) };
}

describe('RefusalLog: refused tokens in the log, bounded', () => {
  it('given 1,000 wrong tokens in one minute, then 10 lines name route and address, and the next minute says how many more there were', () => {
    const { lines, logger } = capture();
    let now = Date.UTC(2026, 11, 7, 9, 0, 0);
    const log = new RefusalLog(logger, () => now);
    for (let i = 0; i < 1000; i++) log.record({ route: 'api', address: `192.0.2.${i % 200}`, outcome: 'refused' });
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatchObject({ level: 40, route: 'api', address: '192.0.2.0', msg: 'wrong token refused' });

    now += 60_000;
    log.record({ route: 'queue-ui', address: '198.51.100.7', outcome: 'limited' });
    expect(lines.slice(10)).toMatchObject([
      { leftOut: 990, msg: '990 more wrong token(s) refused in the previous window, not logged one by one' },
      { route: 'queue-ui', address: '198.51.100.7', msg: 'wrong token: address limited' },
    ]);
  });
});
