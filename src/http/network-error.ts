import { TransientError } from '../errors/index.js';

/**
 * A got RequestError (timeout, reset, refused) → TransientError. Only the error code is kept:
 * got's error carries `options` with every request header, so it is never attached as `cause`.
 */
export function networkError(err: unknown, source: string, operation: string): TransientError {
  const e = err as { code?: string; name?: string; message?: string };
  const code = e?.code ?? e?.name ?? 'ERROR';
  return new TransientError(`${source} ${operation}: network error ${code}`, { source, operation });
}
