import { RejectedError, TransientError } from '../../src/errors/index.js';
import type { ErrorContext, ErrorTable } from '../../src/http/vendor-client.js';

/**
 * What TallyPrime's answers mean. Tally answers HTTP 200 for nearly everything and says what went wrong in
 * the body: STATUS 0 with a LINEERROR (https://help.tallysolutions.com/integration-with-tallyprime/).
 *
 * | answer                                               | class            | why                                   |
 * |------------------------------------------------------|------------------|---------------------------------------|
 * | LINEERROR "Could not set 'SVCurrentCompany' to …"    | TransientError   | the company is not loaded (open) in    |
 * |                                                      |                  | Tally now; it will be when someone     |
 * |                                                      |                  | opens it: the job is retried later     |
 * | any other LINEERROR                                  | RejectedError    | Tally refused our request (TDL)        |
 * | HTTP 5xx, 408; refused or reset connection           | TransientError   | Tally busy, closed, or the PC is off   |
 * | other HTTP ≥ 300                                     | RejectedError    | not TallyPrime's XML server            |
 *
 * Tally has no rate limit and no tokens: no RateLimitedError, no AuthError.
 */
export const errorTable: ErrorTable = (ctx: ErrorContext) => {
  const where = { status: ctx.status, source: 'tally', operation: ctx.operation };
  if (ctx.status >= 500 || ctx.status === 408)
    return new TransientError(`tally ${ctx.operation}: TallyPrime answered HTTP ${ctx.status}`, where);
  if (ctx.status >= 300)
    return new RejectedError(
      `tally ${ctx.operation}: HTTP ${ctx.status}; is settings.url TallyPrime's XML server (Server or Both, port 9000 by default)?`,
      where,
    );
  return undefined;
};

/** A LINEERROR (Tally's refusal in a 200 answer) as an error of ours. */
export function lineError(message: string, operation: string, company: string): TransientError | RejectedError {
  const where = { status: 200, source: 'tally', operation };
  if (/Could not set 'SVCurrentCompany'/i.test(message))
    return new TransientError(
      `tally ${operation}: the company ${JSON.stringify(company)} is not loaded in TallyPrime (open it in Tally; the read is retried)`,
      where,
    );
  return new RejectedError(`tally ${operation}: TallyPrime refused the request: ${message.slice(0, 200)}`, where);
}

/** Tally has no token endpoint: nothing to classify (the shape's token table, for a vendor without tokens). */
export const tokenErrorTable: ErrorTable = () => undefined;
