import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../../app/create-runtime.js';
import { startWorkers, type WorkerService } from '../../app/worker-service.js';
import { validateSettings } from '../../connectors/registry.js';
import type { Runtime } from '../../jobs/runtime.js';
import { PROFILES } from '../../sandbox/profiles.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import {
  REDIS_BACK_SETTLE_MS,
  REDIS_OUTAGE_SUMMARY_MS,
  RedisOutageLog,
} from '../../src/observability/redis-outage-log.js';
import { type RestartableRedis, restartableRedis } from '../support/restartable-redis.js';
import { until } from '../support/until.js';

type Line = { level: number; msg: string; time: number };

/**
 * A worker's log while its Redis is away: every client (state, producer, each BullMQ worker and queue)
 * reports its connection errors to one place, which writes one line when Redis goes, a summary every
 * 10 s while it stays away, and one line when it is back; never a line per client per reconnect attempt.
 * The test's own redis-server is stopped until the clients have failed many times over, then started.
 */
describe('given a worker with every role, on a Redis of the test’s own', () => {
  let redis: RestartableRedis;
  let rt: Runtime;
  let workers: WorkerService;
  let emu: Awaited<ReturnType<(typeof PROFILES)[number]['start']>>;
  const lines: Line[] = [];

  beforeAll(async () => {
    redis = await restartableRedis('redis-outage-log');
    await redis.start();
    emu = await PROFILES.find((p) => p.name === 'zoho-books')!.start({
      port: 0,
      host: '127.0.0.1',
      seed: 5,
      records: 3,
      demo: true,
    });
    const config = parseConfig(
      {
        billing: { url: 'http://127.0.0.1:1', apiKey: 'k' },
        redis: { url: redis.url, prefix: 'outage-log' },
        connections: [emu.demo.connection()],
      },
      {},
      validateSettings,
      'redis-outage-log test config',
    );
    const logger = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(JSON.parse(s) as Line) },
    });
    rt = await createRuntime(config, redis.url, logger);
    workers = startWorkers(rt);
  });
  afterAll(async () => {
    await redis.start();
    await workers?.stop(1_000);
    await rt?.close();
    await emu?.close();
    await redis?.close();
  });

  it('when Redis is away while its clients fail over and over, then the log holds one line when it went, a summary per 10 s, and one when it is back', async () => {
    let errors = 0;
    for (const w of workers.workers) w.on('error', () => errors++);
    const stopped = Date.now();
    await redis.stop();
    // Many reconnect attempts of every client: what used to be written as a line each.
    await until('the workers to fail 60 times', () => errors >= 60, 60_000, 50);
    await redis.start();
    await until('the clients back on Redis', () => rt.redis.status === 'ready', 30_000, 50);
    const outageMs = Date.now() - stopped;

    const during = lines.filter((l) => l.time >= stopped);
    const about = (re: RegExp) => during.filter((l) => re.test(l.msg));
    const gone = about(/^Redis unreachable/);
    const summaries = about(/^Redis still unreachable/);
    const back = about(/^Redis back after/);
    // What the clients report (a job's own failure, a pull cut short by the outage, is the job's line, not these).
    const problems = during.filter((l) => l.level >= 40 && /Redis|worker error|queue error/.test(l.msg));
    console.info(
      `[redis outage log] ${errors} worker errors in ${outageMs} ms of outage → ${problems.length} lines about Redis, ${back.length} back line; before: a line per error`,
    );
    expect(gone).toHaveLength(1);
    expect(back).toHaveLength(1);
    expect(summaries.length).toBeLessThanOrEqual(Math.ceil(outageMs / REDIS_OUTAGE_SUMMARY_MS));
    // Nothing else about the outage: no line per client per attempt.
    expect(problems.map((l) => `${l.msg} ${JSON.stringify(l).slice(0, 400)}`)).toEqual(
      [...gone, ...summaries].sort((a, b) => a.time - b.time).map((l) => `${l.msg} ${JSON.stringify(l).slice(0, 400)}`),
    );
  }, 120_000);
});

describe('the outage log on its own clock', () => {
  it('given a 30 s outage with 32 connection errors a second from its clients, then it writes 5 lines: gone, 3 summaries with their counts, back', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const out: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
      const log = new RedisOutageLog({
        warn: (fields: Record<string, unknown>, msg: string) => void out.push({ level: 'warn', fields, msg }),
        info: (fields: Record<string, unknown>, msg: string) => void out.push({ level: 'info', fields, msg }),
      } as never);
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
      for (let ms = 0; ms < 30_000; ms += 1_000) {
        for (let i = 0; i < 32; i++) expect(log.error(i % 2 ? 'upsert worker' : 'state', refused)).toBe(true);
        vi.advanceTimersByTime(1_000);
      }
      // Not a connection error: the caller's to log.
      expect(log.error('state', new Error('ERR wrong number of arguments'))).toBe(false);
      log.back('state');

      expect(out.map((l) => l.msg)).toEqual([
        'Redis unreachable; its clients reconnect (a summary follows while it stays away)',
        'Redis still unreachable after 10 s: 320 connection errors in the last 10 s',
        'Redis still unreachable after 20 s: 320 connection errors in the last 10 s',
        'Redis still unreachable after 30 s: 320 connection errors in the last 10 s',
        'Redis back after 30 s (960 connection errors meanwhile)',
      ]);
      expect(out[1]!.fields).toMatchObject({ clients: ['state', 'upsert worker'] });
    } finally {
      vi.useRealTimers();
    }
  });

  it('given Redis back, when another client whose attempt was under way fails just after, then no second outage is opened; one failing 2 s later opens one', () => {
    let t = 0;
    const msgs: string[] = [];
    const log = new RedisOutageLog(
      {
        warn: (_f: unknown, msg: string) => void msgs.push(msg),
        info: (_f: unknown, msg: string) => void msgs.push(msg),
      } as never,
      10_000,
      () => t,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    log.error('state', refused);
    t = 1_000;
    log.back('state');
    t = 1_300;
    expect(log.error('upsert worker', refused)).toBe(true);
    expect(msgs.filter((m) => m.startsWith('Redis unreachable'))).toHaveLength(1);
    t = 1_000 + REDIS_BACK_SETTLE_MS;
    log.error('state', refused);
    expect(msgs.filter((m) => m.startsWith('Redis unreachable'))).toHaveLength(2);
    log.stop();
  });
});
