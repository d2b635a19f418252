/**
 * `work`, or a rejection naming `what` once `ms` have passed without an answer. The work itself goes on
 * (a Redis command stays queued until its client gives up on it): only the caller stops waiting, and a
 * late rejection of `work` is swallowed, not left unhandled.
 */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}
