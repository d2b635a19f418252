import { clientSettings, configEntry, demoConnection, type SandboxProfile } from '../kit/profile.js';
import { XERO_SANDBOX_DEFAULTS } from './sandbox-defaults.js';
import { INDIA_TENANT_ID } from './tenants.js';

/**
 * The Xero emulator as `erp-sync sandbox` and the demo run it: two organisations (INR and AUD base); the
 * connection reads the one whose base currency is the billing company's (INR).
 */
export const profile: SandboxProfile = {
  name: 'xero',
  command: {
    description: 'the Xero emulator: two organisations (INR and AUD base) over seeded generated data',
    defaultPort: 4013,
    recordsHelp: 'invoices per organisation',
  },
  async start({ demo, ...options }) {
    const { seed, records } = options;
    // Loaded when started: the CLI registers every profile, and a worker has no use for the emulators' code.
    const { startXeroEmulator } = await import('./xero-emulator.js');
    const emu = await startXeroEmulator({
      ...options,
      ...(demo
        ? { ratePerMinute: 1_000_000, dailyLimit: 10_000_000, maxConcurrent: 50, appRatePerMinute: 10_000_000 }
        : {}),
    });
    const d = XERO_SANDBOX_DEFAULTS;
    const t = INDIA_TENANT_ID;
    const credentials = clientSettings(d);
    const urls = { baseUrl: emu.apiBase, tokenUrl: emu.tokenUrl };
    const sales = () => emu.store.invoices(t).filter((i) => i.Type === 'ACCREC');
    return {
      url: emu.url,
      close: () => emu.close(),
      describe: () => [
        `xero emulator         ${emu.apiBase}  (${records} invoices per organisation, seed ${seed})`,
        `  tenants ${emu.tenantIds.join(', ')} (INR, AUD); clientId ${d.clientId}, clientSecret ${d.clientSecret}, refreshToken ${d.refreshToken} (single-use)`,
        `  authorize URL ${emu.url}/identity/connect/authorize, token URL ${emu.tokenUrl}; admin: ${emu.url}/__admin/{tenants,day-limit,clock,faults,limits,journal,stats}`,
      ],
      configEntry: (webhooks) =>
        configEntry({
          webhooks,
          id: 'xero-in',
          system: 'xero',
          originSource: 'EXTERNAL_SYSTEM_C',
          everySeconds: 60,
          // The emulator's day is 5,000 calls, a paid tier's: a minute's polling fits it, not Starter's 1,000.
          settings: { tenantId: t, tier: 'core', ...credentials, ...urls },
        }),
      demo: {
        connectionId: 'xero-in',
        originSource: 'EXTERNAL_SYSTEM_C',
        from: '2020-01-01',
        to: new Date().toISOString().slice(0, 10),
        connection: () =>
          demoConnection({
            id: 'xero-in',
            system: 'xero',
            originSource: 'EXTERNAL_SYSTEM_C',
            // The sandbox has no limits to respect; real Xero allows 60/min, 1,000/day on Starter (5,000 on paid tiers), 5 concurrent.
            rateBudget: { perMinute: 100_000, perDay: 0, concurrency: 5 },
            settings: { tenantId: t, ...credentials, ...urls },
          }),
        mutate: async () => {
          const open = sales().filter((i) => i.Status === 'AUTHORISED' && i.AmountPaid === 0 && i.AmountCredited === 0);
          const ids = (n: number) => open.splice(0, n).map((i) => i.InvoiceID);
          const edited = ids(5);
          for (const id of edited) emu.store.editInvoice(t, id, { reference: 'edited in the demo', lines: true });
          const paid = ids(3);
          for (const id of paid) emu.store.payInvoice(t, id);
          const voided = ids(2);
          for (const id of voided) emu.store.voidInvoice(t, id);
          for (let i = 0; i < 3; i++) emu.store.createInvoice(t, { status: 'AUTHORISED' });
          return [`edited ${edited.length}`, `paid ${paid.length}`, `voided ${voided.length}`, 'created 3'];
        },
        // DELETED invoices stay in Xero as records with Status DELETED; they are not receivables.
        sourceInvoices: () => sales().filter((i) => !['DELETED', 'DRAFT', 'SUBMITTED'].includes(i.Status)).length,
      },
    };
  },
};
