import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Node's on-disk cache of compiled code (Node 22.1+), shared by the test processes and the CLI processes
// they start (test/support/cli.ts passes it on): each of them loads the same modules (BullMQ, ioredis,
// express, zod), compiled once per run instead of once per process (about 7 % of the unit tier's CPU).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'erp-sync-test-compile-cache');

/**
 * Three tiers (README, "Quick start"):
 * - unit (`npm run test:unit`): pure tests — no Redis, no sockets, no child processes. A file belongs here
 *   when everything it exercises runs in memory; list it below. The tier refuses sockets
 *   (test/support/unit-tier-setup.ts), so a file listed by mistake fails there, naming the socket.
 * - integration: every other file that needs only Node and redis-server (`npm test` runs unit + integration).
 * - ops (`npm run test:ops`): the files that start promtool or prometheus, chromium or docker-compose.
 */
const UNIT_TESTS = [
  'test/architecture/**/*.test.ts',
  'test/billing/schemas/**/*.test.ts',
  'test/connector/**/*.test.ts',
  'test/connectors/quickbooks/map/**/*.test.ts',
  'test/connectors/xero/map/**/*.test.ts',
  'test/errors/**/*.test.ts',
  'test/mapping/**/*.test.ts',
  'test/waits/**/*.test.ts',
  'test/auth/token-expiry.test.ts',
  'test/auth/token-key.test.ts',
  'test/auth/token-sealer.test.ts',
  'test/documents/document-cache.test.ts',
  'test/documents/document-link-token.test.ts',
  'test/billing/billing-target.test.ts',
  'test/billing/error-table.test.ts',
  'test/cli/parse-args.test.ts',
  'test/cli/progress.test.ts',
  'test/cli/progress-line.test.ts',
  'test/jobs/pull/pull-total.test.ts',
  'test/config.test.ts',
  'test/stored-connection-config.test.ts',
  'test/config-field-mappings.test.ts',
  'test/app/worker-service.test.ts',
  'test/connectors/quickbooks/connector.test.ts',
  'test/connectors/quickbooks/error-table.test.ts',
  'test/connectors/quickbooks/rate-limit.test.ts',
  'test/connectors/quickbooks/streams/query.test.ts',
  'test/connectors/quickbooks/webhooks.test.ts',
  'test/connectors/xero/connector.test.ts',
  'test/connectors/xero/error-table.test.ts',
  'test/connectors/xero/rate-limit.test.ts',
  'test/connectors/xero/webhooks.test.ts',
  'test/connectors/zoho-books/connector.test.ts',
  'test/connectors/zoho-books/error-table.test.ts',
  'test/connectors/zoho-books/map/credit-note.test.ts',
  'test/connectors/zoho-books/map/customer.test.ts',
  'test/connectors/zoho-books/map/fx.test.ts',
  'test/connectors/zoho-books/map/invoice.test.ts',
  'test/connectors/zoho-books/map/lines.test.ts',
  'test/connectors/zoho-books/map/reconcile-taxes.test.ts',
  'test/connectors/zoho-books/map/tax.test.ts',
  'test/connectors/zoho-books/map/totals.test.ts',
  'test/connectors/zoho-books/rate-limit.test.ts',
  'test/connectors/zoho-books/settings.test.ts',
  'test/connectors/zoho-books/streams/state.test.ts',
  'test/connectors/zoho-books/webhooks.test.ts',
  'test/http/client-address.test.ts',
  'test/http/connection-hooks.test.ts',
  'test/http/refusal-log.test.ts',
  'test/http/retry-after.test.ts',
  'test/http/with-retry.test.ts',
  'test/jobs/admission/admission.test.ts',
  'test/jobs/upsert/review-rule.test.ts',
  'test/jobs/reconcile/classifiers.test.ts',
  'test/jobs/reconcile/field-digest.test.ts',
  'test/ops/grafana-dashboard.test.ts',
  'test/observability/percentile.test.ts',
  'test/observability/change-to-billing-slow.test.ts',
  'test/console/accept-language.test.ts',
  'test/webhooks/delivery-time.test.ts',
  'test/pipeline/content-hash.test.ts',
  'test/pipeline/keys-layout.test.ts',
  'test/pipeline/ledger-entry-codec.test.ts',
  'test/pipeline/quota-projection.test.ts',
  'test/sandbox/kit/emulator-clock.test.ts',
  'test/sandbox/quickbooks/query-parser.test.ts',
  'test/sandbox/zoho-books/document-arithmetic.test.ts',
  'test/sandbox/zoho-books/generate-data.test.ts',
];

const OPS_TESTS = [
  'test/ops/compose.test.ts',
  'test/ops/metrics-lint.test.ts',
  'test/ops/prometheus-e2e.test.ts',
  'test/ops/prometheus-rules.test.ts',
  'test/ops/queue-ui.test.ts',
  'test/ops/tally-agent-rules.test.ts',
  'test/console/console.test.ts',
  'test/console/console-connect.test.ts',
  'test/console/console-reconciliations.test.ts',
  'test/console/console-review.test.ts',
  'test/console/console-tls-proxy.test.ts',
  'test/console/console-viewer.test.ts',
  'test/cli/connect-command.test.ts',
];

const REDIS_FOR_THE_RUN = ['test/support/redis-global-setup.ts'];

export default defineConfig({
  test: {
    // Tests talk to real Redis and real emulators on loopback, and start CLI processes; three files run at
    // once on a 2-core machine, so a test that starts several CLI processes in a row needs room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on loopback I/O and child processes, so two cores keep three files busy.
    maxWorkers: 3,
    // Vitest's own, then one line per failed test at the very end, where a CI log is read from.
    reporters: ['default', fileURLToPath(new URL('test/support/failed-tests-last.ts', import.meta.url))],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS, setupFiles: ['test/support/unit-tier-setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...OPS_TESTS],
          globalSetup: REDIS_FOR_THE_RUN,
        },
      },
      { extends: true, test: { name: 'ops', include: OPS_TESTS, globalSetup: REDIS_FOR_THE_RUN } },
    ],
  },
});
