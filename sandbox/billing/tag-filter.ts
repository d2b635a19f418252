/**
 * `key:value` tag filters (docs/interface-assumptions.md A9). Pairs with the same key are alternatives
 * (OR); different keys must all match (AND). Values compare as strings.
 */
export type TagBag = Record<string, string | number | boolean | null> | undefined;

export function parseTagPairs(pairs: readonly string[]): Map<string, Set<string>> {
  const byKey = new Map<string, Set<string>>();
  for (const p of pairs) {
    const at = p.indexOf(':');
    const key = p.slice(0, at);
    const value = p.slice(at + 1);
    let set = byKey.get(key);
    if (!set) byKey.set(key, (set = new Set()));
    set.add(value);
  }
  return byKey;
}

/** Every key group has a matching value. */
export function tagsMatchAll(tags: TagBag, wanted: Map<string, Set<string>>): boolean {
  for (const [key, values] of wanted) {
    const v = tags?.[key];
    if (v === undefined || !values.has(String(v))) return false;
  }
  return true;
}

/** Some pair matches. */
export function tagsMatchAny(tags: TagBag, pairs: Map<string, Set<string>>): boolean {
  for (const [key, values] of pairs) {
    const v = tags?.[key];
    if (v !== undefined && values.has(String(v))) return true;
  }
  return false;
}
