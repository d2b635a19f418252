import { z } from 'zod';

type Scalar = string | number | boolean;
type QueryValue = Scalar | readonly Scalar[] | undefined | null;

/** Object → query string; arrays become repeated parameters (`originSource=A&originSource=B`). */
export function toSearchParams(params: Record<string, QueryValue> | object): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) out.append(key, String(v));
    else out.append(key, String(value));
  }
  return out;
}

/** Which keys of an object schema hold arrays (so a single occurrence still parses as a list). */
function arrayKeys(schema: z.ZodType): Set<string> {
  let s: any = schema;
  while (s?.def?.type === 'pipe' || s?.def?.type === 'transform') s = s.def.in ?? s.def.schema;
  const shape: Record<string, any> = s?.shape ?? {};
  const keys = new Set<string>();
  for (const [k, v] of Object.entries(shape)) {
    let t: any = v;
    while (t?.def && ['optional', 'default', 'nullable'].includes(t.def.type)) t = t.def.innerType;
    if (t?.def?.type === 'array') keys.add(k);
  }
  return keys;
}

/** Query string → object, ready for `schema.safeParse`. */
export function searchParamsToObject(schema: z.ZodType, params: URLSearchParams): Record<string, unknown> {
  const lists = arrayKeys(schema);
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = lists.has(key) ? all : all.length === 1 ? all[0] : all;
  }
  return out;
}
