import { afterEach, describe, expect, it } from 'vitest';
import { expectOneLineError, occupyPort, runCli } from '../support/cli.js';

/** `erp-sync sandbox`: bad ports and names are one line and exit 2, never a Node stack. */
describe('erp-sync sandbox (the command)', () => {
  const held: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const h of held.splice(0)) await h.close();
  });

  it('given an unknown emulator name, when sandbox runs, then exit 2 naming it and the choices', async () => {
    const r = await runCli(['sandbox', 'frob']);
    expect(expectOneLineError(r)).toBe(
      'erp-sync: unknown sandbox "frob"; choose one of all, billing, zoho-books, quickbooks, xero, tally',
    );
  });

  it('given --port above 65535, when an emulator starts, then exit 2 naming the range', async () => {
    for (const args of [
      ['sandbox', 'billing', '--port', '70000'],
      ['sandbox', 'xero', '--port', '70000'],
    ]) {
      const r = await runCli(args);
      expect(expectOneLineError(r)).toContain('--port expects a whole number from 0 to 65535, got "70000"');
    }
  });

  it('given sandbox all with --port 65535, when the ERPs would take the next four ports, then exit 2 naming the highest first port', async () => {
    const r = await runCli(['sandbox', 'all', '--port', '65535']);
    const line = expectOneLineError(r);
    expect(line).toContain('--port 65535: the sandbox uses ports 65535 to 65539');
    expect(line).toContain('use at most 65531');
  });

  it('given the port is in use, when sandbox billing starts on it, then exit 2 saying so and which flag chooses another', async () => {
    const busy = await occupyPort();
    held.push(busy);
    const r = await runCli(['sandbox', 'billing', '--port', String(busy.port)]);
    const line = expectOneLineError(r);
    expect(line).toContain(`port ${busy.port} is already in use`);
    expect(line).toContain('choose another with --port');
    expect(r.err).not.toContain('EADDRINUSE');
  });

  it('given the port after --port is in use, when sandbox (all) starts, then exit 2 naming the emulator that wanted it', async () => {
    // A free port whose successor can be held: the billing emulator starts, the Zoho Books one cannot.
    let first = 0;
    for (let attempt = 0; attempt < 20 && !first; attempt++) {
      const probe = await occupyPort();
      await probe.close();
      if (probe.port >= 65535) continue;
      const next = await occupyPort(probe.port + 1).catch(() => undefined);
      if (!next) continue;
      held.push(next);
      first = probe.port;
    }
    expect(first).toBeGreaterThan(0);
    const r = await runCli(['sandbox', '--port', String(first), '--records', '5']);
    const line = expectOneLineError(r);
    expect(line).toContain(`port ${first + 1} is already in use`);
    expect(line).toContain('zoho-books emulator at --port + 1');
    expect(line).toContain('choose another first port with --port');
  });
});
