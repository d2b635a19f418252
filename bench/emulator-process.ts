import { InvoiceInput } from '../src/billing/schemas/index.js';
import { startBillingEmulator } from '../sandbox/billing/billing-emulator.js';
import { applyInvoiceUpsert } from '../sandbox/billing/routes/invoices.js';
import { seedInvoice } from './seed-invoice.js';

/**
 * Runs the billing emulator in its own process for benchmarks; sends its URL to the parent over IPC.
 * argv: [key] [faults JSON] [seed invoices N: upserted in-process with seedInvoice(i)] [their dates spread over D days]
 */
const key = process.argv[2] ?? 'bench-key';
const faults = process.argv[3] ? JSON.parse(process.argv[3]) : {};
const seedCount = Number(process.argv[4] ?? 0);
const spreadDays = Number(process.argv[5] ?? 1);
const emu = await startBillingEmulator({ port: 0, keys: [{ key, companyId: 'bench' }], faults, journalMax: 1_000_000 });
for (let i = 0; i < seedCount; i++)
  applyInvoiceUpsert(emu.store, 'bench', InvoiceInput.parse(seedInvoice(i, spreadDays)));
process.send?.({ url: emu.url });
process.on('message', async (m) => {
  if (m === 'stop') {
    await emu.close();
    process.exit(0);
  }
});
