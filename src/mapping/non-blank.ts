/** Vendor free text trimmed; absent, empty or only whitespace is undefined, so it is left out rather than sent as "". */
export function nonBlank(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
