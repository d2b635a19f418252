import { EventEmitter, once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentBatch } from '../../../connectors/tally/streams/agent-batch.js';

/** One batch as it went through the proxy: what the agent sent, what the worker answered. */
export interface Passed {
  batch: AgentBatch;
  status: number;
  /** True when the worker's answer was kept from the agent (the agent never heard its acknowledgement). */
  held: boolean;
}

/**
 * A loopback proxy between the agent and the worker. Every batch reaches the worker; the answer to the
 * first batch that `holdAckOf` matches is kept from the agent (its request stays open), so a test can kill
 * the agent at the moment the worker has stored a batch the agent does not know was stored: "mid-batch".
 */
export async function startAckHoldingProxy(target: string) {
  const passed: Passed[] = [];
  const events = new EventEmitter();
  let holdAckOf: ((b: AgentBatch) => boolean) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const out: Buffer[] = [];
          answer.on('data', (c: Buffer) => out.push(c));
          answer.on('end', () => {
            const batch = JSON.parse(body.toString('utf8')) as AgentBatch;
            const held = holdAckOf?.(batch) ?? false;
            if (held) holdAckOf = undefined;
            const p: Passed = { batch, status: answer.statusCode ?? 0, held };
            passed.push(p);
            events.emit('passed', p);
            if (held) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(out));
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    /** The next batch matching `match` is stored by the worker but its answer never reaches the agent. */
    holdAckOf(match: (b: AgentBatch) => boolean) {
      holdAckOf = match;
    },
    /** Resolves with the first batch (already passed, or to come) that `match` accepts. */
    async waitFor(match: (p: Passed) => boolean, since = 0): Promise<Passed> {
      for (;;) {
        const found = passed.slice(since).find(match);
        if (found) return found;
        await once(events, 'passed');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
