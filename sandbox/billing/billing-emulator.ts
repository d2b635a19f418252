/**
 * Billing service emulator: every endpoint of the billing service interface (src/billing/schemas), offline, for
 * tests, the demo and benchmarks. Decisions where the interface is silent follow
 * docs/interface-assumptions.md (the files named there live next to this one).
 *
 * - Auth: `X-Service-Signature` (all endpoints but 6 and 7) and `X-Service-Attachment-Upload-Signature`
 *   (6 and 7); the key decides the company and every read and write is company-scoped. Missing key,
 *   unknown key or the wrong header kind → 401 naming the expected header (never the key).
 * - Errors: `{error, message}` (errors.ts); bodies over 1 MiB → 413; invalid JSON → 400; every body
 *   and query is validated with the zod models of src/billing/schemas (400 names the field).
 * - State: in memory (billing-store.ts), sized for 200k+ invoices per company. Setup data (contracts,
 *   fee components, rate cards, tags) is generated from `seed` (seed.ts).
 * - Time: the kit's EmulatorClock: real time until POST /__admin/clock sets it; createdAt/updatedAt come from it.
 * - Faults and journal: the shared kit (sandbox/kit): latency, error rate / next N errors, 429
 *   with Retry-After, connection resets, outage windows; every non-admin request is journaled with
 *   method, path, key, status and sha256 of the body.
 * - Admin (`/__admin/...`, never faulted or journaled; company-scoped calls take `?company=ID`):
 *   reset, clock, faults, journal, stats, and invoice void / delete / payment / patch / raw insert —
 *   see routes/admin.ts and routes/admin-invoices.ts.
 * - Extras beyond the interface's tables: invoice records carry exchangeRate, invoiceAcceptanceStatus,
 *   customerId, tags, metaData; contract records carry buyerId and feeComponents; attachments carry
 *   id and url. The success envelope is `{error: null, message: 'OK', data}`.
 */
import type { FaultConfigInput } from '../kit/faults.js';
import { FaultInjector } from '../kit/faults.js';
import { Journal } from '../kit/journal.js';
import { Router } from '../kit/router.js';
import { startEmulatorServer } from '../kit/emulator-server.js';
import { KeyRing, type CompanyKey } from './auth.js';
import { BillingStore } from './billing-store.js';
import { EmulatorClock } from '../kit/emulator-clock.js';
import { billingErrors } from './errors.js';
import { registerAdminInvoiceRoutes } from './routes/admin-invoices.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAttachmentRoutes } from './routes/attachments.js';
import { registerContractRoutes } from './routes/contracts.js';
import { registerCreditNoteRoutes } from './routes/credit-notes.js';
import { registerCustomerRoutes } from './routes/customers.js';
import { registerFeeComponentRoutes } from './routes/fee-components.js';
import { registerInvoiceRoutes } from './routes/invoices.js';
import { registerUsageDriverRoutes } from './routes/usage-drivers.js';

/** Sandbox keys (never real secrets): two companies, one key of each kind. */
export const DEFAULT_KEYS = Object.freeze([
  Object.freeze({ key: 'sandbox-key-acme', companyId: 'acme' }),
  Object.freeze({ key: 'sandbox-key-globex', companyId: 'globex' }),
]) as CompanyKey[];
export const DEFAULT_ATTACHMENT_KEYS = Object.freeze([
  Object.freeze({ key: 'sandbox-attach-acme', companyId: 'acme' }),
  Object.freeze({ key: 'sandbox-attach-globex', companyId: 'globex' }),
]) as CompanyKey[];

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BillingEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** X-Service-Signature keys; default DEFAULT_KEYS. */
  keys?: readonly CompanyKey[];
  /** X-Service-Attachment-Upload-Signature keys; default DEFAULT_ATTACHMENT_KEYS. */
  attachmentKeys?: readonly CompanyKey[];
  /** Faults from the start (also what POST /__admin/reset restores). */
  faults?: FaultConfigInput;
  /** Seed of the generated billing-setup data; default 1. */
  seed?: number;
  /** Base currency per company id; default INR. */
  baseCurrency?: Record<string, string>;
  /** Journal capacity (oldest entries dropped); default 200,000. */
  journalMax?: number;
  /** Keep each request's body in the journal (tests comparing exactly what a client sent); default false. */
  journalBodies?: boolean;
  /** The wall clock the emulator clock and fault windows follow; default Date.now (tests inject one to let time pass without sleeping). */
  wall?: () => number;
}

export interface BillingEmulator {
  url: string;
  port: number;
  store: BillingStore;
  faults: FaultInjector;
  journal: Journal;
  clock: EmulatorClock;
  close(): Promise<void>;
}

export async function startBillingEmulator(options: BillingEmulatorOptions = {}): Promise<BillingEmulator> {
  const keys = new KeyRing(options.keys ?? DEFAULT_KEYS, options.attachmentKeys ?? DEFAULT_ATTACHMENT_KEYS);
  const wall = options.wall ?? Date.now;
  const clock = new EmulatorClock({}, wall);
  const store = new BillingStore({ clock, seed: options.seed, baseCurrency: options.baseCurrency });
  const initialFaults = options.faults ?? {};
  const faults = new FaultInjector(initialFaults, Math.random, wall);
  const journal = new Journal(options.journalMax, options.journalBodies ?? false);
  const deps = { store, clock, keys };

  const router = new Router();
  registerInvoiceRoutes(router, deps);
  registerCreditNoteRoutes(router, deps);
  registerCustomerRoutes(router, deps);
  registerAttachmentRoutes(router, deps);
  registerUsageDriverRoutes(router, deps);
  registerContractRoutes(router, deps);
  registerFeeComponentRoutes(router, deps);

  const admin = new Router();
  registerAdminRoutes(admin, { ...deps, faults, journal, initialFaults });
  registerAdminInvoiceRoutes(admin, deps);

  const server = await startEmulatorServer(
    {
      name: 'billing',
      router,
      admin,
      faults,
      journal,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      keyOf: (req) => KeyRing.presentedKey(req.headers),
      errors: billingErrors,
    },
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );
  return { url: server.url, port: server.port, store, faults, journal, clock, close: server.close };
}
