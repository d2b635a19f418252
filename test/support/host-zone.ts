import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the enclosing describe's tests with the process's local zone set to `zone`, and puts the previous
 * one back after. Node re-reads TZ when it is assigned, so a test that would pass by luck on a UTC host
 * (a time read as host-local) fails here wherever it runs.
 */
export function inHostZone(zone: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TZ;
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
