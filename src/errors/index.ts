export { SyncError, type SyncErrorOptions } from './sync-error.js';
export { ConfigError } from './config-error.js';
export { AuthError } from './auth-error.js';
export { RateLimitedError } from './rate-limited-error.js';
export { TransientError } from './transient-error.js';
export { RejectedError } from './rejected-error.js';
export { ConflictError } from './conflict-error.js';
export { DataContractError } from './data-contract-error.js';
export { formatZodIssues } from './format-zod-issues.js';
