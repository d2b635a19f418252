import type { Paginated } from '../../src/billing/schemas/envelope.js';

/**
 * The paginated container (docs/interface-assumptions.md A1, A2). One rule set for every list endpoint:
 * - totalPages = ceil(totalDocs / pageSize), so 0 when there are no documents;
 * - hasNext = pageNumber < totalPages; nextPageNumber = pageNumber + 1 or null;
 * - hasPrev = pageNumber > 1; prevPageNumber = pageNumber - 1 or null (also past the last page, so a
 *   caller that overshot can walk back).
 */
export function pageInfo<T>(docs: T[], totalDocs: number, pageNumber: number, pageSize: number): Paginated<T> {
  const totalPages = Math.ceil(totalDocs / pageSize);
  const hasNext = pageNumber < totalPages;
  const hasPrev = pageNumber > 1;
  return {
    totalDocs,
    docs,
    hasNext,
    hasPrev,
    pageNumber,
    pageSize,
    totalPages,
    prevPageNumber: hasPrev ? pageNumber - 1 : null,
    nextPageNumber: hasNext ? pageNumber + 1 : null,
  };
}

/** Pages an in-memory list. */
export function paginate<T, R = T>(
  all: readonly T[],
  pageNumber: number,
  pageSize: number,
  map?: (item: T) => R,
): Paginated<R> {
  const start = (pageNumber - 1) * pageSize;
  const slice = all.slice(start, start + pageSize);
  return pageInfo(map ? slice.map(map) : (slice as unknown as R[]), all.length, pageNumber, pageSize);
}

/** Index range [start, end) of the page, for scans that count and collect in one pass. */
export function pageWindow(pageNumber: number, pageSize: number): { start: number; end: number } {
  const start = (pageNumber - 1) * pageSize;
  return { start, end: start + pageSize };
}
