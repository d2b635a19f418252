/** Problems found in the config: where (path segments) and what, never the value. */
export interface ConfigIssue {
  path: string[];
  message: string;
  /** zod's issue code and, for `invalid_type`, the expected type: lets `${VAR}` values be coerced. */
  code?: string;
  expected?: string;
}
