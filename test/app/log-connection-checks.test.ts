import { describe, expect, it } from 'vitest';
import { logConnectionChecks } from '../../app/log-connection-checks.js';
import { createRuntime } from '../../app/create-runtime.js';
import { validateSettings } from '../../connectors/registry.js';
import { PROFILES } from '../../sandbox/profiles.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startHttpGate } from '../support/http-gate.js';
import { dropPrefix, TEST_REDIS_URL, testPrefix, connect } from '../support/redis.js';
import { until } from '../support/until.js';

/**
 * The worker's start-up connection checks cut short by its shutdown: the Zoho emulator behind a gate
 * that holds every request, so the check is certainly under way (a request waiting at the gate) when
 * the shutdown's signal comes.
 */
describe('the start-up connection checks and the shutdown', () => {
  it('given a check waiting on the vendor, when the shutdown aborts it, then no check is logged as failed with fixes: the ones cut short are said to be stopped by the shutdown', async () => {
    const zoho = PROFILES.find((p) => p.name === 'zoho-books')!;
    const emu = await zoho.start({ port: 0, host: '127.0.0.1', seed: 3, records: 5, demo: true });
    const gate = await startHttpGate(() => emu.url);
    const prefix = testPrefix('log-connection-checks');
    const redis = connect();
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
    });
    const rt = await (async () => {
      const connection = emu.demo.connection() as { settings: Record<string, unknown> };
      const settings = { ...connection.settings, baseUrl: `${gate.url}/books/v3`, accountsUrl: gate.url };
      const config = parseConfig(
        {
          billing: { url: gate.url, apiKey: 'k' },
          redis: { url: TEST_REDIS_URL, prefix },
          connections: [{ ...connection, settings }],
        },
        {},
        validateSettings,
        'log-connection-checks test config',
      );
      return createRuntime(config, TEST_REDIS_URL, logger);
    })();
    try {
      // The token is fetched (its refresh takes no signal); the data reads wait at the gate.
      gate.hold((req) => (req.url ?? '').startsWith('/books/v3'));
      const shutdown = new AbortController();
      const checked = logConnectionChecks(rt, logger, shutdown.signal);
      await until('a check waiting on the vendor', () => gate.held() > 0);
      shutdown.abort();
      await checked;

      const checks = lines.filter((l) => String(l.msg).startsWith('connection check'));
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((l) => l.level !== 30)).toEqual([]);
      expect(checks.filter((l) => 'fix' in l)).toEqual([]);
      expect(checks.map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/failed/));
      const stopped = checks.filter((l) => l.status === 'stopped');
      expect(stopped[0]).toMatchObject({
        msg: 'connection check stopped by the shutdown: read customers',
        detail: 'cut short by the shutdown before it finished',
      });
    } finally {
      gate.release();
      await rt.close();
      await gate.close();
      await emu.close();
      await dropPrefix(redis, prefix);
      redis.disconnect();
    }
  }, 60_000);
});
