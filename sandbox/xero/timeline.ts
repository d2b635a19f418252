import type { SeededRandom } from '../kit/seeded-random.js';

/**
 * Ascending modification instants for generated records, spread over `days` before `anchorMs`. About one
 * in eight shares the previous record's second (a few ms later), so the data set has the same-second
 * clusters that break naive second-precision cursors.
 */
export function timeline(rng: SeededRandom, count: number, anchorMs: number, days: number): number[] {
  const start = anchorMs - days * 86_400_000;
  const raw = Array.from({ length: count }, () => start + Math.floor(rng.next() * (anchorMs - start)));
  raw.sort((a, b) => a - b);
  for (let i = 1; i < raw.length; i++) {
    if (rng.chance(0.125))
      raw[i] = Math.floor(raw[i - 1]! / 1000) * 1000 + Math.min(999, (raw[i - 1]! % 1000) + rng.int(0, 3));
    if (raw[i]! < raw[i - 1]!) raw[i] = raw[i - 1]!;
  }
  return raw;
}
