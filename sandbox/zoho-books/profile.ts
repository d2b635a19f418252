import { clientSettings, configEntry, demoConnection, type SandboxProfile } from '../kit/profile.js';
import { ZOHO_SANDBOX_CONNECTION, ZOHO_SANDBOX_DEFAULTS } from './sandbox-defaults.js';

/** The Zoho Books emulator as `erp-sync sandbox` and the demo run it. */
export const profile: SandboxProfile = {
  name: 'zoho-books',
  command: {
    description: 'the Zoho Books emulator over seeded generated data',
    defaultPort: 4011,
    recordsHelp: 'invoices to generate',
  },
  async start({ demo, ...options }) {
    const { seed, records } = options;
    // Loaded when started: the CLI registers every profile, and a worker has no use for the emulators' code.
    const { startZohoEmulator } = await import('./zoho-emulator.js');
    const emu = await startZohoEmulator({ ...options, ...(demo ? { ratePerMinute: 0, dailyLimit: 0 } : {}) });
    const d = ZOHO_SANDBOX_DEFAULTS;
    const credentials = clientSettings(d);
    return {
      url: emu.url,
      close: () => emu.close(),
      describe: () => [
        `zoho-books emulator   ${emu.apiBase}  (${records} invoices, seed ${seed})`,
        `  organizationId ${emu.organizationId}, clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken}`,
        `  authorize URL ${emu.url}/oauth/v2/auth, token URL ${emu.tokenUrl}; admin: ${emu.url}/__admin/{mutate,clock,faults,limits,journal,stats}`,
      ],
      configEntry: (webhooks) =>
        configEntry({
          webhooks,
          id: ZOHO_SANDBOX_CONNECTION,
          system: 'zoho-books',
          originSource: 'EXTERNAL_SYSTEM_A',
          everySeconds: 30,
          settings: {
            organizationId: d.organizationId,
            ...credentials,
            baseUrl: `${emu.url}/books/v3`,
            dailyCallLimit: 10000,
          },
        }),
      demo: {
        connectionId: ZOHO_SANDBOX_CONNECTION,
        originSource: 'EXTERNAL_SYSTEM_A',
        from: '2025-01-01',
        to: '2025-12-31',
        connection: () =>
          demoConnection({
            id: ZOHO_SANDBOX_CONNECTION,
            system: 'zoho-books',
            originSource: 'EXTERNAL_SYSTEM_A',
            // The sandbox has no per-minute limit; real Zoho allows 100/min per organisation.
            rateBudget: { perMinute: 100_000, concurrency: 8 },
            settings: {
              organizationId: emu.organizationId,
              ...credentials,
              baseUrl: emu.apiBase,
              accountsUrl: emu.url,
              dailyCallLimit: 0,
            },
          }),
        mutate: async () => {
          const store = emu.store;
          const all = store.invoices();
          // Unpaid, uncredited, posted invoices: Zoho refuses to void or delete an invoice with payments or credits.
          const credited = new Set(store.creditNotes().flatMap((c) => c.applications?.map((a) => a.invoice_id) ?? []));
          const open = all.filter(
            (i) =>
              i.status !== 'void' &&
              i.status !== 'draft' &&
              i.payments.length === 0 &&
              i.writeOffMinor === 0 &&
              !credited.has(i.invoice_id),
          );
          const pick = (n: number, from = open) => from.splice(0, n).map((i) => i.invoice_id);
          const edited = pick(5);
          for (const id of edited) store.editInvoice(id);
          const paid = pick(3);
          for (const id of paid) store.recordPayment(id);
          const voided = pick(2);
          for (const id of voided) store.voidInvoice(id);
          const deleted = pick(1);
          for (const id of deleted) store.deleteInvoice(id);
          const sameSecond = pick(4);
          store.editInvoicesInSameSecond(sameSecond);
          for (let i = 0; i < 3; i++) store.createInvoice({});
          return [
            `edited ${edited.length}`,
            `paid ${paid.length}`,
            `voided ${voided.length}`,
            `deleted ${deleted.length}`,
            `edited ${sameSecond.length} in the same second`,
            'created 3',
          ];
        },
        sourceInvoices: () => emu.store.invoices().filter((i) => i.status !== 'draft').length,
      },
    };
  },
};
