/**
 * The p99 change → billing time (seconds) above which the alert ErpSyncChangeToBillingSlow fires
 * (ops/prometheus/rules/webhooks.rules.yml, for changes announced by webhook). The console colours each
 * connection's freshness against it and `erp-sync connections` / `status` say when a p99 is above it;
 * test/observability/change-to-billing-slow.test.ts holds the rule to this number, so the two never differ.
 */
export const CHANGE_TO_BILLING_SLOW_P99_SECONDS = 5;

/** The alert's name, as the rule and the runbook spell it. */
export const CHANGE_TO_BILLING_SLOW_ALERT = 'ErpSyncChangeToBillingSlow';
