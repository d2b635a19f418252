import type { BillingClient } from '../../src/billing/client.js';
import type { CustomerDetailsInput } from '../../src/billing/schemas/index.js';
import { ConflictError } from '../../src/errors/index.js';
import type { CustomersEnsured } from '../../src/pipeline/customers-ensured.js';

/**
 * "Ensure customer" (the interface has create but no update): search by BUYER_ID, create if absent.
 * Remembered per connection in Redis so each buyer costs one search, once.
 */
export async function ensureCustomer(
  rt: {
    billing: Pick<BillingClient, 'searchCustomers' | 'createCustomer'>;
    customersEnsured: Pick<CustomersEnsured, 'has' | 'add'>;
  },
  conn: string,
  customer: CustomerDetailsInput,
  signal?: AbortSignal,
): Promise<void> {
  if (await rt.customersEnsured.has(conn, customer.buyerId)) return;
  const found = await rt.billing.searchCustomers(
    { searchType: 'BUYER_ID', searchText: customer.buyerId, pageSize: 1 },
    { signal },
  );
  if (found.totalDocs === 0) {
    try {
      await rt.billing.createCustomer(customer, { signal });
    } catch (err) {
      // Another worker created it between our search and our create: that is the outcome we wanted.
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  await rt.customersEnsured.add(conn, customer.buyerId);
}
