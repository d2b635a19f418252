import { isDeepStrictEqual } from 'node:util';
import type { BillingBody, MapContext } from '../../src/connector/types.js';
import type { Runtime } from '../../jobs/runtime.js';
import { InvoiceUpsertBody } from '../../src/billing/schemas/index.js';
import type { BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import type { StoredInvoice } from '../../sandbox/billing/billing-store.js';

/** Where one connection writes: its billing company and origin. */
export interface SyncedConnection {
  rt: Runtime;
  billing: BillingEmulator;
  connectionId: string;
  company: string;
  origin: string;
}

/** Billing's invoices of the connection's origin, by ERP id (straight from the emulator's store); two for one ERP id throws. */
export function billingInvoicesOf(c: SyncedConnection): Map<string, StoredInvoice> {
  const out = new Map<string, StoredInvoice>();
  for (const inv of c.billing.store.company(c.company).invoices) {
    if (inv.originSource !== c.origin || !inv.input.erpId) continue;
    if (out.has(inv.input.erpId)) throw new Error(`two billing invoices for ERP id ${inv.input.erpId}`);
    out.set(inv.input.erpId, inv);
  }
  return out;
}

/** The expected mapping of the source as it is now: every invoice read and mapped afresh. */
export async function expectedInvoicesOf(c: SyncedConnection): Promise<{
  mapped: Map<string, { body: BillingBody; version: string }>;
  quarantined: Map<string, string>;
}> {
  const handle = c.rt.connection(c.connectionId);
  const { connector, config } = handle;
  const stream = connector.streams.invoices;
  const ctx = handle.readContext({ logger: c.rt.logger, until: new Date(Date.now() + 60_000) });
  const mapCtx: MapContext = {
    connectionId: config.id,
    originSource: config.originSource,
    baseCurrency: c.rt.config.billing.baseCurrency,
    lookups: stream.lookups ? await stream.lookups(ctx) : {},
  };
  const mapped = new Map<string, { body: BillingBody; version: string }>();
  const quarantined = new Map<string, string>();
  for await (const page of stream.read(ctx, stream.initialState(undefined))) {
    for (const r of page.records) {
      if (r.deleted) continue;
      const m = stream.map(r, mapCtx);
      if (m.ok) mapped.set(r.id, { body: m.value, version: r.version });
      else quarantined.set(r.id, m.reason);
    }
  }
  return { mapped, quarantined };
}

/**
 * Billing against the source as it is now, record for record: every invoice the mapping accepts is in
 * billing exactly once with exactly the mapped content (billing's stored input equals the mapped body as
 * billing parses it: amounts, lines, tax, status, everything), and the ledger holds the source's current
 * version. Returns the problems found (empty = billing is right).
 */
export async function compareWithSource(c: SyncedConnection, options: { except?: Set<string> } = {}) {
  const { mapped, quarantined } = await expectedInvoicesOf(c);
  const inBilling = billingInvoicesOf(c);
  const problems: string[] = [];
  for (const [erpId, { body, version }] of mapped) {
    if (options.except?.has(erpId)) continue;
    const stored = inBilling.get(erpId);
    if (!stored) {
      problems.push(`${erpId}: missing in billing`);
      continue;
    }
    if (body.kind !== 'invoice') continue;
    const want = InvoiceUpsertBody.parse({ invoice: JSON.parse(JSON.stringify(body.invoice)) }).invoice;
    if (!isDeepStrictEqual(stored.input, want)) {
      const keys = [...new Set([...Object.keys(want), ...Object.keys(stored.input)])];
      const diff = keys.filter(
        (k) => !isDeepStrictEqual((stored.input as Record<string, unknown>)[k], (want as Record<string, unknown>)[k]),
      );
      problems.push(`${erpId}: billing content differs from the source's current version in ${diff.join(', ')}`);
    }
    const entry = await c.rt.ledger.get(c.connectionId, 'invoices', erpId);
    if (entry?.version !== version)
      problems.push(`${erpId}: ledger version ${entry?.version} ≠ source version ${version}`);
    // Where the connector sends it (its contract asks it to), billing must not hold an older version.
    const held = (stored.input.metaData as Record<string, unknown> | undefined)?.sourceVersion;
    if (typeof held === 'string' && entry && held < entry.version)
      problems.push(`${erpId}: billing holds version ${held}, ledger ${entry.version}`);
  }
  for (const erpId of inBilling.keys())
    if (!mapped.has(erpId) && !options.except?.has(erpId))
      problems.push(`${erpId}: in billing but not a mapped source invoice`);
  return { expected: mapped.size, quarantinedByMapping: quarantined, inBilling: inBilling.size, problems };
}
