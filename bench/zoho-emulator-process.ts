import { startZohoEmulator } from '../sandbox/zoho-books/index.js';

/** The Zoho Books emulator in its own process for benchmarks. argv: [records] */
const records = Number(process.argv[2] ?? 1000);
const emu = await startZohoEmulator({
  port: 0,
  seed: 5,
  records,
  customers: Math.max(50, Math.floor(records / 50)),
  creditNotes: Math.floor(records / 20),
  ratePerMinute: 0,
  dailyLimit: 0,
});
process.send?.({ url: emu.url, apiBase: emu.apiBase, organizationId: emu.organizationId, invoices: emu.store.invoices().length });
process.on('message', async (m) => {
  if (m === 'stop') {
    await emu.close();
    process.exit(0);
  }
});
