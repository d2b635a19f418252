/**
 * The reader's locales from `Accept-Language` (RFC 9110 §12.5.4), best first: each tag checked by Intl
 * (an unknown or malformed one is dropped), `*` and `q=0` left out, at most 5. The page formats times
 * and numbers with them; none (no header): the browser's own (`navigator.languages`).
 */
export function acceptedLocales(header: string | undefined): string[] {
  if (!header) return [];
  const ranked: Array<{ tag: string; q: number; at: number }> = [];
  for (const [at, part] of header.split(',').slice(0, 20).entries()) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!tag || tag === '*' || !Number.isFinite(q) || q <= 0) continue;
    try {
      ranked.push({ tag: Intl.getCanonicalLocales(tag)[0]!, q, at });
    } catch {
      // Not a language tag: ignored, as a browser would.
    }
  }
  ranked.sort((a, b) => b.q - a.q || a.at - b.at);
  return [...new Set(ranked.map((r) => r.tag))].slice(0, 5);
}
