/**
 * How many rows a paged list holds, found by probing pages rather than reading them all: pages 1, 2, 4,
 * 8… until one is short or empty, then a binary search between the last full page and it. About
 * 2·log2(pages) calls: 10,000 rows at 200 a page is some 12 probes instead of 50 pages.
 * `probe(page)` returns the number of rows on that page (0 beyond the end).
 */
export async function countByProbing(
  pageSize: number,
  probe: (page: number) => Promise<number>,
): Promise<{ records: number; calls: number }> {
  let calls = 0;
  const rowsOn = async (page: number) => {
    calls++;
    return probe(page);
  };
  let full = 0; // the last page known to be full
  let page = 1;
  let rows = await rowsOn(page);
  while (rows === pageSize) {
    full = page;
    page *= 2;
    rows = await rowsOn(page);
  }
  if (rows > 0) return { records: (page - 1) * pageSize + rows, calls };
  // Page `page` is empty: the last non-empty page lies in (full, page).
  let lo = full + 1;
  let hi = page - 1;
  let last = { page: full, rows: full ? pageSize : 0 };
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const n = await rowsOn(mid);
    if (n === 0) hi = mid - 1;
    else {
      last = { page: mid, rows: n };
      if (n < pageSize) break;
      lo = mid + 1;
    }
  }
  return { records: last.page ? (last.page - 1) * pageSize + last.rows : 0, calls };
}
