import { AuthError, RejectedError, TransientError } from '../../src/errors/index.js';
import { type RetryPolicy, withRetry } from '../../src/http/with-retry.js';
import { AGENT_BATCHES_PATH, AgentAck, type AgentBatch } from '../../connectors/tally/streams/agent-batch.js';

/**
 * One push of a batch to the worker, retried in place (p-retry via withRetry, the only retry owner of the
 * call): a refused or reset connection, a timeout or a 5xx is transient (the network is gone, the worker
 * restarting); 401/403 mean the credential is wrong or revoked (AuthError, not retried: the agent waits and
 * says so); any other 4xx is a RejectedError. Beyond the policy the error goes up and the agent's loop tries
 * again at its next poll, the batch still in its queue.
 *
 * | error                            | here                                  | worst case     |
 * |----------------------------------|---------------------------------------|----------------|
 * | network, timeout, 5xx, 429       | 1 + 5 attempts, backoff 1 s → 30 s    | 6 HTTP calls   |
 * | 401, 403, other 4xx              | not retried                           | 1 HTTP call    |
 */
export const PUSH_RETRY: RetryPolicy = {
  retries: 5,
  minTimeoutMs: 1_000,
  maxTimeoutMs: 30_000,
  maxRetryTimeMs: 120_000,
};

export interface PushTarget {
  /** The worker's public URL (`http.publicUrl`). */
  url: string;
  credential: string;
  timeoutMs: number;
  retry?: RetryPolicy;
}

/** The batch's answer: `gap` when the worker holds less than the batch assumed (resend from `ackedAlterId`). */
export async function pushBatch(
  target: PushTarget,
  batch: AgentBatch,
  signal?: AbortSignal,
): Promise<{ ackedAlterId: number; gap: boolean }> {
  const endpoint = `POST ${AGENT_BATCHES_PATH}`;
  const url = new URL(AGENT_BATCHES_PATH, target.url.endsWith('/') ? target.url : `${target.url}/`);
  const body = JSON.stringify(batch);
  return withRetry(
    async () => {
      const timeout = AbortSignal.timeout(target.timeoutMs);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.credential}`, 'content-type': 'application/json' },
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (e) {
        if (signal?.aborted) throw signal.reason ?? e;
        const code = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
        throw new TransientError(`worker ${endpoint}: network error ${code}`, {
          source: 'worker',
          operation: endpoint,
        });
      }
      const text = await res.text();
      if (res.status === 200 || res.status === 409)
        return { ackedAlterId: AgentAck.parse(JSON.parse(text)).ackedAlterId, gap: res.status === 409 };
      const said = text.slice(0, 300);
      const options = { status: res.status, source: 'worker', operation: endpoint };
      if (res.status === 401 || res.status === 403)
        throw new AuthError(`worker ${endpoint}: HTTP ${res.status} (${said}): check --credential-file`, options);
      if (res.status >= 500 || res.status === 429 || res.status === 408)
        throw new TransientError(`worker ${endpoint}: HTTP ${res.status}`, options);
      throw new RejectedError(`worker ${endpoint}: HTTP ${res.status} (${said})`, options);
    },
    { ...PUSH_RETRY, ...target.retry, ...(signal ? { signal } : {}) },
  );
}
