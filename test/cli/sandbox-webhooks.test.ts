import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import { parseConfig } from '../../src/config.js';
import { spawnCli, type RunningCli } from '../support/cli.js';
import { admin, validHmac, WebhookReceiver } from '../sandbox/webhooks/webhook-receiver.js';

/**
 * `erp-sync sandbox` wires every ERP emulator to the worker's webhook listener: a receiver standing in for
 * the worker, on the port the printed config names, gets each sandbox's deliveries with no other step.
 */
describe('erp-sync sandbox (all) and webhooks', () => {
  let rx: WebhookReceiver;
  let cli: RunningCli;
  let output = '';
  const secret = (system: string) => `sandbox-${system}-webhooks-1-not-a-real-secret`;
  beforeAll(async () => {
    rx = await new WebhookReceiver().start();
    rx.answer = (r) =>
      r.path !== '/webhooks/xero' || validHmac(r.raw, r.headers['x-xero-signature'], secret('xero')) ? 200 : 401;
    const port = new URL(rx.url).port;
    cli = spawnCli(['sandbox', '--port', '0', '--records', '5', '--webhooks-port', port], { timeoutMs: 60_000 });
    await cli.waitForOutput(/^connections:$(\n.+)+\n\n/m);
    output = cli.out();
  });
  afterAll(async () => {
    cli.kill('SIGTERM');
    await cli.exit;
    await rx.close();
  });

  const origin = (name: string) => output.match(new RegExp(`^${name} emulator\\s+(http://[^/\\s]+)`, 'm'))![1]!;

  it('given a webhooks port, when the sandbox starts, then the printed config has the webhooks listener and each connection its secret', () => {
    const port = new URL(rx.url).port;
    expect(output).toContain(`\nwebhooks:\n  port: ${port}\n  host: 127.0.0.1\nconnections:`);
    for (const system of ['zoho-books', 'quickbooks', 'xero'])
      expect(output).toContain(`    webhooks:\n      secret: ${secret(system)}\n`);
    expect(output).toMatch(/schedule: \{ everySeconds: \d+, withWebhooksEverySeconds: 3600 \}/);
  });

  it('given the sandbox runs, then its config has a Tally connection (OTHER, direct mode, no webhooks) the worker accepts, pointing at the Tally emulator', async () => {
    const printed = output.slice(output.indexOf('# erp-sync config'));
    const config = parseConfig(parseYaml(printed), {}, validateSettings, 'printed config');
    const tally = config.connections.find((c) => c.system === 'tally')!;
    expect(tally).toMatchObject({ id: 'tally-sandbox', originSource: 'OTHER' });
    expect(tally.webhooks).toBeUndefined();
    expect(tally.settings).toMatchObject({ mode: 'direct', url: origin('tally'), company: 'Kaveri Tooling Pvt Ltd' });
    // Every other connection has an external origin of its own in the same billing company.
    const others = config.connections.filter((c) => c !== tally).map((c) => c.originSource);
    expect(new Set(others)).toEqual(new Set(['EXTERNAL_SYSTEM_A', 'EXTERNAL_SYSTEM_B', 'EXTERNAL_SYSTEM_C']));
    const stats = (await (await fetch(`${origin('tally')}/__admin/stats`)).json()) as { invoices: number };
    expect(stats.invoices).toBe(5);
  });

  it('given the worker listening, when each ERP changes an invoice, then each delivery arrives signed as its vendor signs', async () => {
    const xero = origin('xero');
    await expect.poll(async () => (await admin(xero, '/__admin/webhooks')).body.status).toBe('active');
    const before = rx.received.length;
    for (const name of ['zoho-books', 'quickbooks', 'xero']) {
      const res = await admin(origin(name), '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    await rx.until(before + 3);
    const got = rx.received.slice(before);
    const by = (prefix: string) => got.find((r) => r.path.startsWith(prefix))!;
    expect(validHmac(by('/webhooks/xero').raw, by('/webhooks/xero').headers['x-xero-signature'], secret('xero'))).toBe(
      true,
    );
    const qbo = by('/webhooks/quickbooks');
    expect(validHmac(qbo.raw, qbo.headers['intuit-signature'], secret('quickbooks'))).toBe(true);
    expect(by('/webhooks/zoho-books/zoho-in').headers['x-erp-sync-secret']).toBe(secret('zoho-books'));
  });
});
