import { randomBytes } from 'node:crypto';
import { validateSettings } from '../connectors/registry.js';
import type { UpsertPayload } from '../jobs/catalog.js';
import { batchUpserts, enqueueUpserts, upsertJobId, type UpsertJob } from '../jobs/upsert/enqueue-upserts.js';
import { createRuntime } from '../app/create-runtime.js';
import type { Runtime } from '../jobs/runtime.js';
import { startWorkers } from '../app/worker-service.js';
import { BillingClient } from '../src/billing/client.js';
import { InvoiceInput, type InvoiceInputDraft } from '../src/billing/schemas/index.js';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { contentHash } from '../src/pipeline/content-hash.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { arg, machine, median, runPool } from './bench-utils.js';
import { bareHttpPost } from './bare-http-post.js';
import { forkBillingEmulator, journalStatuses } from './fork-emulator.js';
import { reconcileBenchConfig } from './reconcile-cli.js';

/**
 * (a) Upsert-pipeline throughput (BullMQ job → record lock → ledger check → billing upsert → ledger
 *     write), one record per job and `--batches` records per job, next to a BillingClient loop and a
 *     bare node:http loop, same emulator (its own process), same concurrency, alternating rounds in one run.
 * (b) Achieved billing rate against a configured rate limit, with the emulator enforcing that same
 *     limit (429 + Retry-After past it): rate / limit and the share of 429s.
 *
 *   npm run bench:pipeline [-- --n 3000 --concurrency 16 --rounds 5 --warm 1000 --batches 1,20 --limit 100 --limited-n 1500]
 */
const N = arg('n', 3000);
const C = arg('concurrency', 16);
const ROUNDS = arg('rounds', 5);
const WARM = arg('warm', 1000);
const LIMIT = arg('limit', 100);
const LIMITED_N = arg('limited-n', 1500);
const BATCHES = (process.argv.includes('--batches') ? process.argv[process.argv.indexOf('--batches') + 1]! : '1,20')
  .split(',')
  .map(Number);
const KEY = 'bench-key';
const BUYERS = 100;

function invoice(i: number, tag: string): InvoiceInputDraft {
  const amt = 1000 + (i % 97);
  return {
    invoiceId: `inv.bench.${tag}-${i}`,
    invoiceNumber: `B-${tag}-${i}`,
    invoiceDate: { date: '2026-11-01' },
    invoiceSubtotal: amt,
    invoiceTax: {
      total: 180,
      gstTax: { totalGst: 180, totalGstRate: 18, cgst: 90, cgstRate: 9, sgst: 90, sgstRate: 9, igst: 0, igstRate: 0 },
    },
    invoiceTotal: amt + 180,
    invoiceCurrency: 'INR',
    customerDetails: { buyerId: `cust.bench.${i % BUYERS}`, name: 'Bench Buyer' },
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    erpId: `${tag}-${i}`,
  };
}

function payload(i: number, tag: string): UpsertJob {
  const inv = invoice(i, tag);
  const body = { kind: 'invoice' as const, invoice: inv };
  const hash = contentHash(body);
  return {
    name: 'upsert' as const,
    data: {
      connectionId: 'bench',
      entity: 'invoices',
      erpId: `${tag}-${i}`,
      version: '2026-11-01T00:00:00.000Z',
      hash,
      body,
    },
    opts: { jobId: upsertJobId('bench', 'invoices', `${tag}-${i}`, hash) },
  };
}

async function runtimeFor(billingUrl: string, redisUrl: string, prefix: string, rateMax: number): Promise<Runtime> {
  const config = parseConfig(
    reconcileBenchConfig(billingUrl, KEY, redisUrl, prefix, {
      billing: { rateLimit: { max: rateMax, durationMs: 1000 } },
      sync: { upsertConcurrency: C, backlogHighWater: 1_000_000 },
    }),
    {},
    validateSettings,
  );
  return createRuntime(config, redisUrl, createLogger({ level: 'error', format: 'json' }));
}

/** What a pull hands the pipeline: N mapped records with their content hashes and job ids. */
function payloads(tag: string, n: number): UpsertJob[] {
  return Array.from({ length: n }, (_, i) => payload(i, tag));
}

/** As a pull enqueues a page: tracked in flight, in jobs of `batch` records, 1,000 records per addBulk. */
async function pipelineRound(rt: Runtime, jobs: UpsertJob[], batch = 1): Promise<number> {
  const n = jobs.length;
  const started = performance.now();
  for (let i = 0; i < jobs.length; i += 1000) await enqueueUpserts(rt, batchUpserts(jobs.slice(i, i + 1000), batch));
  for (;;) {
    if ((await rt.ledger.count('bench', 'invoices')) >= rtCount.get(rt)! + n) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  rtCount.set(rt, rtCount.get(rt)! + n);
  return ms;
}
const rtCount = new Map<Runtime, number>();

async function main() {
  const redis = await resolveRedis();
  const cleanup = stateConnection(redis.url);
  const prefixes: string[] = [];
  const lines: string[] = [];
  try {
    // (a) throughput
    const emu = await forkBillingEmulator(KEY);
    const prefix = `bench-${randomBytes(3).toString('hex')}`;
    prefixes.push(prefix);
    const rt = await runtimeFor(emu.url, redis.url, prefix, 1_000_000);
    rtCount.set(rt, 0);
    const workers = startWorkers(rt, ['upsert']);
    const client = new BillingClient({ baseUrl: emu.url, apiKey: KEY });
    const bare = bareHttpPost(emu.url, '/external/invoice/upsert', KEY);
    // Warm-up long enough for the JIT and every path's connections (300 left the first rounds slow).
    await runPool(WARM, C, (i) => bare({ invoice: InvoiceInput.parse(invoice(i, 'warm-b')) }));
    await runPool(WARM, C, (i) => client.upsertInvoice(invoice(i, 'warm-c')));
    for (const b of BATCHES) await pipelineRound(rt, payloads(`warm-p${b}`, WARM), b); // also ensures the bench customers once
    // Per path: rates (invoices/s) and CPU of this process (client or workers) per invoice, steadier than rates on a shared machine.
    const paths = [
      {
        name: 'bare node:http keep-alive loop (bodies built and validated before timing)',
        batch: 0,
        rates: [] as number[],
        cpu: [] as number[],
      },
      { name: 'BillingClient loop', batch: 0, rates: [] as number[], cpu: [] as number[] },
      ...BATCHES.map((b) => ({
        name: `upsert pipeline, ${b} record${b === 1 ? '' : 's'} per job`,
        batch: b,
        rates: [] as number[],
        cpu: [] as number[],
      })),
    ];
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    // A pull's own work before the pipeline (mapping, content hash, job id), measured apart: the pipeline
    // path's time and CPU start at its first enqueue, as the bare loop's start after its bodies are built.
    const payloadCpu: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const bodies = Array.from({ length: N }, (_, i) => ({ invoice: InvoiceInput.parse(invoice(i, `b${r}`)) }));
      for (const [k, path] of paths.entries()) {
        let jobs: UpsertJob[] = [];
        if (k >= 2) {
          const built = cpuMs();
          jobs = payloads(`p${path.batch}-${r}`, N);
          payloadCpu.push(((cpuMs() - built) / N) * 1000);
        }
        const cpu = cpuMs();
        const ms =
          k === 0
            ? await runPool(N, C, (i) => bare(bodies[i]))
            : k === 1
              ? await runPool(N, C, (i) => client.upsertInvoice(invoice(i, `c${r}`)))
              : await pipelineRound(rt, jobs, path.batch);
        path.cpu.push(((cpuMs() - cpu) / N) * 1000);
        path.rates.push((N / ms) * 1000);
      }
    }
    await workers.stop(5_000);
    await rt.close();
    emu.stop();
    lines.push(`## (a) pipeline throughput vs a client loop vs a bare HTTP loop\n`);
    lines.push(`machine: ${machine()}`);
    lines.push(
      `method: billing emulator in its own process; ${N} invoices per round, concurrency ${C} for every path (the pipeline's upsert worker concurrency); ${ROUNDS} alternating rounds after a ${WARM}-invoice warm-up each (which also ensures the ${BUYERS} customers); pipeline time and CPU = first enqueue (in-flight tracking + addBulk, as a pull does) → last ledger write, the payloads (mapped invoice, content hash, job id: a pull's work) built before it and measured on their own row; CPU = this process's user+system time per invoice\n`,
    );
    lines.push('| path | invoices/s (median) | rounds | CPU µs per invoice (median) |\n|---|---|---|---|');
    for (const path of paths)
      lines.push(
        `| ${path.name} | ${median(path.rates).toFixed(0)} | ${path.rates.map((x) => x.toFixed(0)).join(', ')} | ${median(path.cpu).toFixed(0)} |`,
      );
    const [b0, c0] = [paths[0]!, paths[1]!];
    lines.push(
      `| (before the pipeline: building the payloads a pull hands it — invoice, content hash, job id) | | | ${median(payloadCpu).toFixed(0)} |`,
    );
    lines.push(
      `\nclient / bare: rate ${(median(c0.rates) / median(b0.rates)).toFixed(2)}, CPU ${(median(b0.cpu) / median(c0.cpu)).toFixed(2)}`,
    );
    // Also per round (the paths of one round run back to back): a machine whose speed drifts over the run
    // moves both sides of a round's ratio together.
    const perRound = (path: { cpu: number[] }) => path.cpu.map((cpu, r) => c0.cpu[r]! / cpu);
    for (const path of paths.slice(2))
      lines.push(
        `${path.name} / client: rate ${(median(path.rates) / median(c0.rates)).toFixed(2)}, CPU ${(median(c0.cpu) / median(path.cpu)).toFixed(2)}` +
          ` (CPU per round: ${perRound(path)
            .map((x) => x.toFixed(2))
            .join(', ')}; median ${median(perRound(path)).toFixed(2)})`,
      );
    lines.push('');

    // (b) rate limit
    const limited = await forkBillingEmulator(KEY, { limitPerSecond: LIMIT });
    const prefix2 = `bench-${randomBytes(3).toString('hex')}`;
    prefixes.push(prefix2);
    const rt2 = await runtimeFor(limited.url, redis.url, prefix2, LIMIT);
    rtCount.set(rt2, 0);
    const w2 = startWorkers(rt2, ['upsert']);
    await pipelineRound(rt2, payloads('warm', 200));
    const before = await journalStatuses(limited.url, '/external/invoice/upsert');
    const ms = await pipelineRound(rt2, payloads('lim', LIMITED_N));
    const after = await journalStatuses(limited.url, '/external/invoice/upsert');
    await w2.stop(5_000);
    await rt2.close();
    limited.stop();
    const ok = (after[200] ?? 0) - (before[200] ?? 0);
    const tooMany = (after[429] ?? 0) - (before[429] ?? 0);
    const rate = (LIMITED_N / ms) * 1000;
    lines.push(`## (b) achieved rate against a configured billing rate limit\n`);
    lines.push(
      `method: billing.rateLimit = ${LIMIT}/1000 ms in the worker config; the emulator enforces ${LIMIT} requests per wall-clock second (429 + Retry-After 1 past it); ${LIMITED_N} invoices through the pipeline at concurrency ${C}\n`,
    );
    lines.push(
      `achieved ${rate.toFixed(1)} upserts/s = ${(rate / LIMIT).toFixed(3)} of the limit; ${tooMany} × 429 out of ${ok + tooMany} upsert requests (${((tooMany / (ok + tooMany)) * 100).toFixed(2)} %)`,
    );
  } finally {
    for (const p of prefixes) await deleteKeysWithPrefix(cleanup, p);
    await cleanup.quit();
    await redis.stop();
  }
  console.log(lines.join('\n'));
}

await main();
