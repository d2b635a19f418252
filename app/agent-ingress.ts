import express, { type Express, type Request, type Response } from 'express';
import { AGENT_BATCHES_PATH, AgentBatch } from '../connectors/tally/streams/agent-batch.js';
import { isAgentConnection } from '../connectors/tally/streams/agent-mode.js';
import { BodyTooLargeError, readBody } from '../src/webhooks/read-body.js';
import { credentialGuardOf } from '../src/http/credential-guard.js';
import type { Runtime } from '../jobs/runtime.js';

/** The largest batch body taken: 500 vouchers of a few kB each are well under it. */
export const MAX_AGENT_BODY_BYTES = 32 * 1024 * 1024;

const refuse = (res: Response, status: number, error: string, message: string) =>
  void res.status(status).json({ error, message });

/**
 * `POST /agent/v1/tally/batches`: where `erp-sync tally-agent` pushes what it read from TallyPrime. The
 * credential (`Authorization: Bearer <connection>.<secret>`, made by `erp-sync connect`) is checked before
 * a byte of the body is read: a wrong one is 401 (counted against the client address like the API's
 * tokens, 429 when it has guessed too often). Then the body is read (capped), validated, and stored
 * durably (src/pipeline/agent-inbox.ts) before the answer: 200 {ackedAlterId}, or 409 {ackedAlterId} when
 * the batch would leave a gap (the agent resends from there). `others` answers every other path.
 */
export function withAgentIngress(rt: Runtime, others: Express): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.post(AGENT_BATCHES_PATH, (req, res, next) => void takeBatch(rt, req, res).catch(next));
  app.use(others);
  return app;
}

async function takeBatch(rt: Runtime, req: Request, res: Response): Promise<void> {
  const connection = await authenticated(rt, req, res);
  if (connection === undefined) return;
  const c = rt.config.connections.find((x) => x.id === connection);
  if (!c || !isAgentConnection(c))
    return refuse(res, 403, 'FORBIDDEN', `connection ${connection} is not a Tally connection in agent mode`);
  let body: unknown;
  try {
    body = JSON.parse((await readBody(req, MAX_AGENT_BODY_BYTES)).toString('utf8'));
  } catch (e) {
    if (e instanceof BodyTooLargeError)
      return refuse(res, 413, 'TOO_LARGE', `the body is over ${MAX_AGENT_BODY_BYTES} bytes`);
    return refuse(res, 400, 'BAD_REQUEST', 'the body is not valid JSON');
  }
  const parsed = AgentBatch.safeParse(body);
  if (!parsed.success)
    return refuse(
      res,
      400,
      'BAD_REQUEST',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  const b = parsed.data;
  if (b.connection !== connection)
    return refuse(res, 403, 'FORBIDDEN', 'the batch names another connection than its credential');
  const { taken, acked } = await rt.agentInbox.accept(connection, {
    entity: b.entity,
    fromCounter: b.fromAlterId,
    toCounter: b.toAlterId,
    records: b.records.map((raw) => ({ id: raw.GUID, counter: Number(raw.ALTERID), raw })),
    agentVersion: b.agentVersion,
    backlog: b.backlog,
    ...(b.lookups ? { lookups: b.lookups } : {}),
  });
  res.status(taken ? 200 : 409).json({ ackedAlterId: acked });
}

/** The connection of a right credential, or undefined with the refusal (401, or 429 when limited) sent. */
async function authenticated(rt: Runtime, req: Request, res: Response): Promise<string | undefined> {
  const header = req.headers.authorization ?? '';
  const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  const connection = presented ? await rt.agentCredentials.verify(presented) : undefined;
  const guard = credentialGuardOf(rt);
  const verdict = await guard.judge(
    'agent',
    { peer: req.socket.remoteAddress, forwardedFor: req.headers['x-forwarded-for'] as string | undefined },
    connection !== undefined,
  );
  if (!verdict.allowed) {
    res.setHeader('retry-after', String(verdict.retryAfterSeconds));
    refuse(res, 429, 'TOO_MANY_ATTEMPTS', 'too many wrong credentials from this address; wait and retry');
    return undefined;
  }
  if (connection === undefined) {
    res.setHeader('www-authenticate', 'Bearer');
    refuse(res, 401, 'UNAUTHENTICATED', 'a valid agent credential is needed (erp-sync connect <connection>)');
    return undefined;
  }
  return connection;
}
