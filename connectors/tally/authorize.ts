/**
 * No authorization flow: TallyPrime has no OAuth (https://help.tallysolutions.com/integration-with-tallyprime/),
 * so `erp-sync connect` has nothing to do for a Tally connection (the connector declares no `authorization`).
 */
export const authorization = undefined;
