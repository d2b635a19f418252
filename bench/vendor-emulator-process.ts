import { PROFILES } from '../sandbox/profiles.js';

/**
 * An ERP emulator (any profile of sandbox/profiles.ts) in its own process for benchmarks, vendor limits
 * off. argv: [vendor] [invoices]. Sends the parent the demo connection entry, the backfill range, and
 * how many invoices billing should end up with; 'count' asks for that number again.
 */
const [vendor = 'zoho-books', records = '1000'] = process.argv.slice(2);
const profile = PROFILES.find((p) => p.name === vendor);
if (!profile) throw new Error(`unknown vendor ${vendor}; one of ${PROFILES.map((p) => p.name).join(', ')}`);
const started = Date.now();
const emu = await profile.start({ port: 0, host: '127.0.0.1', seed: 5, records: Number(records), demo: true });
const { demo } = emu;
process.send?.({
  connection: demo.connection(),
  from: demo.from,
  to: demo.to,
  sourceInvoices: demo.sourceInvoices(),
  generatedSeconds: (Date.now() - started) / 1000,
});
process.on('message', async (m) => {
  if (m === 'stop') {
    await emu.close();
    process.exit(0);
  }
});
