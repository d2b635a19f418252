import { describe, expect, it } from 'vitest';
import { countByProbing } from '../../src/connector/count-by-probing.js';

/** A list of `total` rows at `size` a page: rows on a page, as a vendor answers. */
const list = (total: number, size: number) => async (page: number) =>
  Math.max(0, Math.min(size, total - (page - 1) * size));

describe('countByProbing: a list counted by probing its pages', () => {
  it.each([
    [0, 1],
    [1, 1],
    [199, 1],
    [200, 2],
    [201, 2],
    [400, 4],
    [10_000, 12],
    [10_001, 12],
    [123_457, 19],
  ])('given %i rows at 200 a page, then it counts them exactly in %i probes', async (total, calls) => {
    expect(await countByProbing(200, list(total, 200))).toEqual({ records: total, calls });
  });
});
