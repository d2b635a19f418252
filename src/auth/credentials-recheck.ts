/**
 * How long a connection whose refresh token the vendor refused stays parked before one refresh is tried
 * again: long enough not to hammer the token endpoint (and trip its refusal limits) while nobody has
 * re-authorised, short enough that a grant restored on the vendor's side is picked up unattended.
 */
export const CREDENTIALS_RECHECK_MS = 10 * 60_000;
