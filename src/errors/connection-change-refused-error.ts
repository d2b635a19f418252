import { ConfigError } from './config-error.js';

/** Why a change of a stored connection was refused, and the HTTP status that says it. */
const STATUS = { invalid: 400, forbidden: 403, 'not-found': 404, conflict: 409 } as const;
export type ConnectionChangeRefusal = keyof typeof STATUS;

/**
 * A connection could not be created, changed or removed: its entry is invalid (with the first issue's
 * path inside the connection), it is another company's, there is none, or it clashes (an id the YAML or
 * another stored connection holds, a YAML connection asked to change). Never retried.
 */
export class ConnectionChangeRefusedError extends ConfigError {
  constructor(
    readonly refusal: ConnectionChangeRefusal,
    message: string,
    /** For `invalid`: where in the connection (`settings.organizationId`). */
    readonly path?: string,
  ) {
    super(message, { status: STATUS[refusal] });
  }
}
