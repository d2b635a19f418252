/**
 * TallyPrime's XML server takes no credentials (no OAuth, no API key, no TLS;
 * https://help.tallysolutions.com/integration-with-tallyprime/): a Tally connection has no token, so the
 * shape's token refresh and auth provider are absent. Protecting the port is the network's job
 * (README, "Reaching Tally").
 */
export const refreshFn = undefined;
export const createAuth = undefined;
