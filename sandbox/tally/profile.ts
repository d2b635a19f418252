import { configEntry, demoConnection, type SandboxProfile } from '../kit/profile.js';

export const TALLY_SANDBOX_CONNECTION = 'tally-sandbox';

/**
 * The sandbox's three other ERPs take the three external origins of the one billing company its config
 * writes to, so the printed Tally connection is `OTHER` there (docs/configuration.md, "Choosing a Tally
 * connection's originSource"). The demo gives Tally a billing company of its own instead, where it is
 * `EXTERNAL_SYSTEM_A`.
 */
const SANDBOX_ORIGIN = 'OTHER';
const DEMO_ORIGIN = 'EXTERNAL_SYSTEM_A';
const DEMO_BILLING_COMPANY = 'demo-tally';

/** The TallyPrime emulator as `erp-sync sandbox` and the demo run it. */
export const profile: SandboxProfile = {
  name: 'tally',
  command: {
    description: 'the TallyPrime emulator (XML over POST /) over seeded generated GST books',
    defaultPort: 4014,
    recordsHelp: 'Sales vouchers to generate',
  },
  async start({ seed, records, port, host }) {
    // Loaded when started: the CLI registers every profile, and a worker has no use for the emulators' code.
    const { startTallyEmulator } = await import('./tally-emulator.js');
    const emu = await startTallyEmulator({
      port,
      host,
      seed,
      invoices: records,
      creditNotes: Math.max(1, Math.floor(records / 4)),
      customers: Math.max(4, Math.floor(records / 3)),
    });
    return {
      url: emu.url,
      close: () => emu.close(),
      describe: () => [
        `tally emulator        ${emu.url}  (${records} Sales vouchers, seed ${seed}; company "${emu.companyName}")`,
        `  no credentials (TallyPrime takes none); admin: ${emu.url}/__admin/{stats,company,changes,reset}`,
      ],
      // TallyPrime sends no webhooks: the connection is polled (an idle poll is one request).
      sendsWebhooks: false,
      configEntry: () =>
        configEntry({
          id: TALLY_SANDBOX_CONNECTION,
          system: 'tally',
          originSource: SANDBOX_ORIGIN,
          everySeconds: 60,
          settings: { url: emu.url, company: emu.companyName, mode: 'direct' },
        }),
      demo: {
        connectionId: TALLY_SANDBOX_CONNECTION,
        originSource: DEMO_ORIGIN,
        billingCompany: DEMO_BILLING_COMPANY,
        // The emulator's books: the financial year 2025-26 (new vouchers are dated in it too).
        from: '2025-04-01',
        to: '2026-03-31',
        connection: () =>
          demoConnection({
            id: TALLY_SANDBOX_CONNECTION,
            system: 'tally',
            originSource: DEMO_ORIGIN,
            // TallyPrime serves one request at a time; the emulator has no per-minute limit.
            rateBudget: { perMinute: 100_000, concurrency: 1 },
            settings: { url: emu.url, company: emu.companyName, encoding: 'utf-16' },
          }),
        mutate: async () => {
          const store = emu.store;
          const open = store.invoices().filter((v) => !v.isCancelled);
          const credited = new Set(store.creditNotes().map((c) => c.reference));
          const free = open.filter((v) => !credited.has(v.voucherNumber));
          const pick = (n: number) => free.splice(0, n).map((v) => v.guid);
          const edited = pick(5);
          for (const id of edited) store.editVoucher(id, 'Altered in the demo', { bumpQuantity: true });
          const cancelled = pick(2);
          for (const id of cancelled) store.cancelVoucher(id);
          const deleted = pick(1);
          for (const id of deleted) store.deleteVoucher(id);
          for (let i = 0; i < 3; i++) store.createInvoice();
          return [
            `altered ${edited.length}`,
            `cancelled ${cancelled.length}`,
            `deleted ${deleted.length} (no tombstone: found by the deletes sweep)`,
            'created 3',
          ];
        },
        // A cancelled voucher is a void in billing, counted as the other vendors' voids are.
        sourceInvoices: () => emu.store.invoices().length,
      },
    };
  },
};
