/**
 * What a test started, to be stopped in reverse order: each part of the harness adds its own stop the
 * moment the thing is running, so a failure half-way through a start still stops what came before.
 * A failing stop does not keep the others from running; the first failure is thrown at the end.
 */
export class Cleanups {
  private readonly stops: Array<() => Promise<unknown> | unknown> = [];

  /** Runs `stop` at `run()`, before everything added earlier. */
  add(stop: () => Promise<unknown> | unknown): void {
    this.stops.push(stop);
  }

  /** Runs `stop` at `run()`, after everything added so far (e.g. a folder the started things write to). */
  addLast(stop: () => Promise<unknown> | unknown): void {
    this.stops.unshift(stop);
  }

  async run(): Promise<void> {
    let first: unknown;
    while (this.stops.length > 0) {
      const stop = this.stops.pop()!;
      try {
        await stop();
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== undefined) throw first;
  }
}

/** Starts something with `cleanups`; if it throws, everything already added is stopped before rethrowing. */
export async function orCleanUp<T>(cleanups: Cleanups, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    await cleanups.run().catch(() => {});
    throw e;
  }
}
