import { ORIGIN_SOURCES, type OriginSource } from '../../src/billing/schemas/index.js';
import { vendorProfile, type VendorSystem } from './vendors/registry.js';

/** One company (the default shape): its connection, billing company and origin. */
export const CONNECTION = 'zoho-rel';
export const COMPANY = 'rel';
export const ORIGIN = 'EXTERNAL_SYSTEM_A';
/** The second connection of the one-company shape (`secondConnection`): another Zoho organisation, same company. */
export const SECOND_CONNECTION = 'zoho-rel-two';
export const SECOND_ORIGIN = 'EXTERNAL_SYSTEM_B';
/** The two-companies shape: each connection reads its own Zoho organisation and writes to its own billing company. */
export const ACME = { connection: 'zoho-acme', company: 'acme', origin: 'EXTERNAL_SYSTEM_A' } as const;
export const GLOBEX = { connection: 'zoho-globex', company: 'globex', origin: 'EXTERNAL_SYSTEM_B' } as const;

/** A connection a test asks for: only `system` is needed, the rest has defaults (see `resolveConnections`). */
export interface HarnessConnection {
  system: VendorSystem;
  /** @defaultValue `<vendor id prefix>-<n>`, n counting from 1 among the connections */
  id?: string;
  /** The billing company it writes to. @defaultValue COMPANY */
  company?: string;
  /** @defaultValue the first origin no earlier connection of its company took, from EXTERNAL_SYSTEM_A on */
  origin?: OriginSource;
  /** The emulator's data seed. @defaultValue 5 + the connection's position */
  seed?: number;
  /** Invoices and customers its emulator generates. @defaultValue the harness's */
  invoices?: number;
  customers?: number;
  /** The vendor's own emulator options (its profile's option type: faults, organisation, company, ...). */
  emulator?: Record<string, unknown>;
  /** Overrides of the connection's `settings`. */
  settings?: Record<string, unknown>;
  /** @defaultValue ['customers', 'invoices'] */
  entities?: readonly string[];
  /** The connection's own `billing` section (its own keys); unset: the default `billing` keys. */
  billing?: Record<string, unknown>;
  /** Anything else of the raw `connections[]` entry (webhooks, schedule, ...), over the harness's. */
  extra?: Record<string, unknown>;
}

/** A connection with every default filled: what the emulators and the config are built from. */
export interface ConnectionSpec extends Required<
  Pick<HarnessConnection, 'system' | 'id' | 'company' | 'origin' | 'seed'>
> {
  invoices?: number;
  customers?: number;
  emulator?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  entities?: readonly string[];
  billing?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** The preset shapes (Zoho Books only): one company (one connection, or two on one company), or two companies. */
export function shapeConnections(companies: 'one' | 'two', secondConnection: boolean): HarnessConnection[] {
  if (companies === 'two')
    return [
      {
        system: 'zoho-books',
        id: ACME.connection,
        company: ACME.company,
        origin: ACME.origin,
        seed: 5,
        emulator: { organizationId: '60010000001' },
      },
      {
        system: 'zoho-books',
        id: GLOBEX.connection,
        company: GLOBEX.company,
        origin: GLOBEX.origin,
        seed: 9,
        emulator: { organizationId: '60010000002' },
        // Globex's own keys, its company named; acme's connection uses the default keys (company unnamed).
        billing: {
          apiKey: '${GLOBEX_KEY}',
          attachmentKey: '${GLOBEX_ATTACH}',
          baseCurrency: 'INR',
          company: GLOBEX.company,
        },
      },
    ];
  const first: HarnessConnection = { system: 'zoho-books', id: CONNECTION, company: COMPANY, origin: ORIGIN, seed: 5 };
  return secondConnection
    ? [first, { system: 'zoho-books', id: SECOND_CONNECTION, company: COMPANY, origin: SECOND_ORIGIN, seed: 6 }]
    : [first];
}

/**
 * Fills each connection's defaults. Two connections of one company never share an origin unless the
 * test says so (billing keys an invoice by ERP id and origin, and two ERPs' ids may collide), nor do two
 * connections share an id; either is an error naming the connections.
 */
export function resolveConnections(asked: readonly HarnessConnection[]): ConnectionSpec[] {
  if (asked.length === 0) throw new Error('the harness needs at least one connection');
  const taken = new Map<string, Set<string>>();
  const ids = new Set<string>();
  const perVendor = new Map<string, number>();
  const out: ConnectionSpec[] = [];
  for (const [n, c] of asked.entries()) {
    const profile = vendorProfile(c.system);
    const nth = (perVendor.get(c.system) ?? 0) + 1;
    perVendor.set(c.system, nth);
    const id = c.id ?? `${profile.idPrefix}-${nth}`;
    if (ids.has(id)) throw new Error(`connections[${n}]: the id "${id}" is taken by an earlier connection`);
    ids.add(id);
    const company = c.company ?? COMPANY;
    const used = taken.get(company) ?? new Set<string>();
    taken.set(company, used);
    const origin = c.origin ?? ORIGIN_SOURCES.find((o) => o.startsWith('EXTERNAL_') && !used.has(o));
    if (!origin) throw new Error(`connections[${n}] (${id}): company ${company} has no external origin left`);
    if (used.has(origin))
      throw new Error(
        `connections[${n}] (${id}): origin ${origin} of company ${company} is taken by an earlier connection`,
      );
    used.add(origin);
    out.push({ ...c, id, company, origin, seed: c.seed ?? 5 + n });
  }
  return out;
}
