/**
 * Request bodies this process has already parsed with the billing interface's own schema. The client
 * validates every body it sends; an upsert job first parses the body its payload carries with the same
 * schemas (the payload comes from Redis: a boundary of its own), so each invoice would be parsed twice.
 * The objects that parse returned are remembered here, weakly, and the client sends them as they are:
 * parsing an output again gives it back unchanged (the schemas only check and fill defaults). Only the
 * exact objects the parse returned count; a copy or anything built from them is validated as usual.
 */
const checked = new WeakSet<object>();

/** Remembers `value` as the output of its billing schema's parse; returns it. */
export function markChecked<T extends object>(value: T): T {
  checked.add(value);
  return value;
}

/** Whether `value` is an object a billing schema's parse returned in this process. */
export function isChecked(value: unknown): boolean {
  return typeof value === 'object' && value !== null && checked.has(value);
}
