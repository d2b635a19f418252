import { AuthError } from './auth-error.js';

/**
 * The vendor refused the connection's refresh token (revoked, expired, spent), or there is none: no
 * retry helps until someone re-authorises the connection. A kind of AuthError, told apart so the pipeline
 * can mark the connection's credentials bad and park it rather than call the token endpoint in a loop.
 */
export class CredentialsRefusedError extends AuthError {}
