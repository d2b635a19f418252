import { BillingClient } from '../src/billing/client.js';
import { InvoiceInput, type InvoiceInputDraft } from '../src/billing/schemas/index.js';
import { startBillingEmulator } from '../sandbox/billing/billing-emulator.js';
import { listInvoices } from '../sandbox/billing/invoice-listing.js';
import { applyInvoiceUpsert } from '../sandbox/billing/routes/invoices.js';
import { arg, machine, median, runPool } from './bench-utils.js';
import { bareHttpPost } from './bare-http-post.js';
import { forkBillingEmulator } from './fork-emulator.js';

/**
 * Billing upserts per second: the real BillingClient (zod validation of request and response, p-retry,
 * got) next to a bare keep-alive node:http loop posting the same bodies, against the same emulator,
 * same concurrency, same run, alternating A/B rounds; the emulator in a separate process. Then the emulator's own store at 200,000
 * invoices, so we know it is never the bottleneck of a benchmark.
 *
 *   npm run bench:billing [-- --n 4000 --concurrency 16 --rounds 3]
 */
const N = arg('n', 4000);
const CONCURRENCY = arg('concurrency', 16);
const ROUNDS = arg('rounds', 5);
const KEY = 'bench-key';

function body(i: number, round: string): InvoiceInputDraft {
  return {
    invoiceId: `bench-${round}-${i}`,
    invoiceNumber: `B-${round}-${i}`,
    invoiceDate: { date: '2026-11-01' },
    invoiceSubtotal: 1000 + (i % 97),
    invoiceTax: {
      total: 180,
      gstTax: { totalGst: 180, totalGstRate: 18, cgst: 90, cgstRate: 9, sgst: 90, sgstRate: 9, igst: 0, igstRate: 0 },
    },
    invoiceTotal: 1180 + (i % 97),
    invoiceCurrency: 'INR',
    customerDetails: {
      buyerId: `bench-cust-${i % 500}`,
      name: 'Bench Buyer',
      taxIdentifiers: [{ type: 'GSTIN', value: '29AABCB1234F1Z5' }],
    },
    lineItems: [
      {
        lineItemDetails: { name: 'Subscription', taxRate: 18, pricePerItem: 1000 + (i % 97) },
        subTotal: 1000 + (i % 97),
        total: 1180 + (i % 97),
      },
    ],
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    erpId: String(i),
  };
}

async function main() {
  // The emulator runs in its own process (its own core), as a real service would.
  const emu = await forkBillingEmulator(KEY);
  const client = new BillingClient({ baseUrl: emu.url, apiKey: KEY });
  const bare = bareHttpPost(emu.url, '/external/invoice/upsert', KEY);

  // Warm up both paths (JIT, sockets).
  await runPool(500, CONCURRENCY, (i) => bare({ invoice: InvoiceInput.parse(body(i, 'wb')) }));
  await runPool(500, CONCURRENCY, (i) => client.upsertInvoice(body(i, 'wc')));

  const bareRates: number[] = [];
  const clientRates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Bodies built before timing for the bare loop (it does no validation); the client validates its own.
    const bareBodies = Array.from({ length: N }, (_, i) => ({ invoice: InvoiceInput.parse(body(i, `a${r}`)) }));
    const msA = await runPool(N, CONCURRENCY, (i) => bare(bareBodies[i]));
    bareRates.push((N / msA) * 1000);
    const msB = await runPool(N, CONCURRENCY, (i) => client.upsertInvoice(body(i, `b${r}`)));
    clientRates.push((N / msB) * 1000);
  }
  emu.stop();

  // The emulator's store at scale (in-process, no HTTP).
  const big = await startBillingEmulator({ port: 0, keys: [{ key: KEY, companyId: 'big' }] });
  big.clock.set({ now: '2026-11-10T12:00:00Z' });
  const SCALE = 200_000;
  const inputs = Array.from({ length: SCALE }, (_, i) =>
    InvoiceInput.parse({ ...body(i, 'big'), invoiceOriginSource: i % 2 ? 'EXTERNAL_SYSTEM_A' : 'EXTERNAL_SYSTEM_B' }),
  );
  let t = performance.now();
  for (const input of inputs) applyInvoiceUpsert(big.store, 'big', input);
  const upsertMs = performance.now() - t;
  const company = big.store.company('big');
  const q = {
    dateType: 'UPDATED_AT',
    startDate: '2026-11-10',
    endDate: '2026-11-10',
    originSource: ['EXTERNAL_SYSTEM_A'],
    pageSize: 500,
  } as const;
  listInvoices(company, { ...q, pageNumber: 1 } as never, '2026-11-10');
  const pageMs: number[] = [];
  for (let p = 2; p < 12; p++) {
    t = performance.now();
    listInvoices(company, { ...q, pageNumber: p } as never, '2026-11-10');
    pageMs.push(performance.now() - t);
  }
  await big.close();

  const b = median(bareRates);
  const c = median(clientRates);
  console.log(
    `# billing client benchmark\n\nmachine: ${machine()}\nmethod: ${N} upserts per round, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds after 500-request warm-ups, median of rounds; emulator in a separate process on loopback\n`,
  );
  console.log('| path | upserts/s (median) | rounds |');
  console.log('|---|---|---|');
  console.log(
    `| bare node:http keep-alive loop | ${b.toFixed(0)} | ${bareRates.map((x) => x.toFixed(0)).join(', ')} |`,
  );
  console.log(`| BillingClient.upsertInvoice | ${c.toFixed(0)} | ${clientRates.map((x) => x.toFixed(0)).join(', ')} |`);
  console.log(`\nclient / bare = ${(c / b).toFixed(2)}\n`);
  console.log(
    `emulator store: ${SCALE} upserts in ${upsertMs.toFixed(0)} ms (${((SCALE / upsertMs) * 1000).toFixed(0)}/s); UPDATED_AT page of 500 over ${SCALE}: median ${median(pageMs).toFixed(1)} ms`,
  );
}

await main();
