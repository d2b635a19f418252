import { clientSettings, configEntry, demoConnection, type SandboxProfile } from '../kit/profile.js';

/** The QuickBooks Online emulator as `erp-sync sandbox` and the demo run it: a company whose home currency is INR. */
export const profile: SandboxProfile = {
  name: 'quickbooks',
  command: {
    description: 'the QuickBooks Online emulator over seeded generated data',
    defaultPort: 4012,
    recordsHelp: 'invoices to generate',
  },
  async start({ demo, ...options }) {
    const { seed, records } = options;
    // Loaded when started: the CLI registers every profile, and a worker has no use for the emulators' code.
    const { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } = await import('./quickbooks-emulator.js');
    const emu = await startQuickBooksEmulator({
      ...options,
      ...(demo
        ? {
            customers: Math.max(12, Math.floor(records / 10)),
            creditMemos: Math.floor(records / 10),
            ratePerMinute: 1_000_000,
            maxInFlight: 50,
          }
        : {}),
    });
    const d = QBO_SANDBOX_DEFAULTS;
    const credentials = clientSettings(d);
    const urls = {
      baseUrl: emu.url,
      tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      authorizeUrl: `${emu.url}/connect/oauth2`,
    };
    const invoices = () => [...emu.store.docs.Invoice.values()];
    return {
      url: emu.url,
      close: () => emu.close(),
      describe: () => [
        `quickbooks emulator   ${emu.url}/v3/company/${emu.realmId}  (${records} invoices, seed ${seed})`,
        `  realmId ${emu.realmId}, clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken} (rotates)`,
        `  authorize URL ${emu.url}/connect/oauth2, token URL ${emu.url}/oauth2/v1/tokens/bearer; admin: ${emu.url}/__admin/{invoices,credit-memos,customers,touch,clock,faults,limits,journal,stats}`,
      ],
      configEntry: (webhooks) =>
        configEntry({
          webhooks,
          id: 'qbo-in',
          system: 'quickbooks',
          originSource: 'EXTERNAL_SYSTEM_B',
          everySeconds: 30,
          settings: { realmId: d.realmId, ...credentials, ...urls },
        }),
      demo: {
        connectionId: 'qbo-in',
        originSource: 'EXTERNAL_SYSTEM_B',
        from: '2020-01-01',
        to: new Date().toISOString().slice(0, 10),
        connection: () =>
          demoConnection({
            id: 'qbo-in',
            system: 'quickbooks',
            originSource: 'EXTERNAL_SYSTEM_B',
            // The sandbox has no limits to respect; real QuickBooks allows 500/min and 10 in flight per realm.
            rateBudget: { perMinute: 100_000, concurrency: 10 },
            settings: { realmId: emu.realmId, ...credentials, ...urls },
          }),
        mutate: async () => {
          const open = invoices().filter((i) => !i.voided && i.paidPaise === 0);
          const ids = (n: number) => open.splice(0, n).map((i) => i.id);
          const edited = ids(5);
          for (const id of edited) emu.store.editInvoice(id, { privateNote: 'edited in the demo' });
          const paid = ids(3);
          for (const id of paid) emu.store.recordPayment(id);
          const voided = ids(2);
          for (const id of voided) emu.store.voidInvoice(id);
          const deleted = ids(1);
          for (const id of deleted) emu.store.deleteDoc('Invoice', id);
          for (let i = 0; i < 3; i++) emu.store.createInvoice({});
          return [
            `edited ${edited.length}`,
            `paid ${paid.length}`,
            `voided ${voided.length}`,
            `deleted ${deleted.length} (found through CDC)`,
            'created 3',
          ];
        },
        sourceInvoices: () => invoices().length,
      },
    };
  },
};
