/**
 * No webhooks: TallyPrime sends nothing when books change (there is no cloud API to send from;
 * https://help.tallysolutions.com/integration-with-tallyprime/). A Tally connection is polled, and an idle
 * poll costs one request (streams/read.ts).
 */
export const webhooks = undefined;
