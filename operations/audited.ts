import type { Logger } from 'pino';
import type { AuditEntry, AuditLog, AuditOutcome } from '../src/pipeline/audit-log.js';

/** Who acts, and where what they do is written: the API's caller, the console's session, the person at the command line. */
export interface Auditor {
  audit: Pick<AuditLog, 'append'>;
  logger: Pick<Logger, 'info'>;
  /** A token's name, or the command line's user. */
  who: string;
  /** Where the action came from, for the log line only (`api`, `console`, `cli`). */
  via: string;
}

/** What an action says of how it ended, for its audit entry. */
export interface Told {
  /** @defaultValue `ok` */
  outcome?: AuditOutcome;
  /** The HTTP status answered; 0 from the command line. @defaultValue 0 */
  status?: number;
  detail?: string;
  connection?: string;
  record?: string;
}

/** An audited action: its name in the log, and what it is about when the call names it. */
export interface AuditedCall {
  action: string;
  connection?: string;
  record?: string;
}

const OUTCOME: Array<[number, AuditOutcome]> = [
  [400, 'invalid'],
  [403, 'refused'],
  [404, 'not-found'],
  [409, 'conflict'],
];

/** The audit outcome of an HTTP status (2xx ok; the rest `failed`). */
export const outcomeOfStatus = (status: number): AuditOutcome =>
  status < 300 ? 'ok' : (OUTCOME.find(([s]) => s === status)?.[1] ?? 'failed');

/** A failure as the audit log tells it: an error with an HTTP status (the API's) by that status, any other `failed`. */
function toldOfError(err: unknown): Told {
  const status = (err as { status?: unknown }).status;
  const message = err instanceof Error ? err.message : String(err);
  return typeof status === 'number'
    ? { outcome: outcomeOfStatus(status), status, detail: message }
    : { outcome: 'failed', detail: message };
}

/**
 * The one way a state-changing action is written to the audit log, whoever calls it (the API, the console
 * through the API, the command line): runs `op`, then appends one entry (who, the action, the connection
 * and record it is about, the outcome, a short detail) before returning, so a success means both the
 * effect and its record are in Redis; a failure is written with its message and thrown on. The detail
 * comes from the action's own describing function (`describe*` beside each operation), so the same action
 * reads the same from every front end.
 */
export async function audited<T>(
  by: Auditor,
  call: AuditedCall,
  op: () => Promise<T>,
  tell: (result: T) => Told = () => ({}),
): Promise<T> {
  let result: T;
  try {
    result = await op();
  } catch (err) {
    await write(by, call, toldOfError(err));
    throw err;
  }
  await write(by, call, tell(result));
  return result;
}

async function write(by: Auditor, call: AuditedCall, told: Told): Promise<void> {
  const connection = told.connection ?? call.connection;
  const record = told.record ?? call.record;
  const entry: Omit<AuditEntry, 'id' | 'at'> = {
    who: by.who,
    action: call.action,
    ...(connection ? { connection } : {}),
    ...(record ? { record: record.slice(0, 200) } : {}),
    outcome: told.outcome ?? 'ok',
    status: told.status ?? 0,
    ...(told.detail ? { detail: told.detail.slice(0, 500) } : {}),
  };
  await by.audit.append(entry);
  by.logger.info(entry, `${by.via}: ${call.action} ${entry.outcome}`);
}
