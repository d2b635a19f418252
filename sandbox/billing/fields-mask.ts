import type { IncomingHttpHeaders } from 'node:http';

/**
 * The fields mask (docs/interface-assumptions.md A27): header `X-Fields-Mask: a,b,c` keeps only those
 * fields of each returned record; `id` is always kept. Without the header, records pass unchanged.
 */
export const FIELDS_MASK_HEADER = 'x-fields-mask';

export type FieldsMask = (record: Record<string, unknown>) => Record<string, unknown>;

export function fieldsMaskOf(headers: IncomingHttpHeaders): FieldsMask {
  const raw = headers[FIELDS_MASK_HEADER];
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if (!text) return (r) => r;
  const keep = new Set(
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  if (keep.size === 0) return (r) => r;
  keep.add('id');
  return (record) => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(record)) if (keep.has(k)) out[k] = record[k];
    return out;
  };
}
