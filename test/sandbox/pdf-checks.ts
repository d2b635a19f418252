import { expect } from 'vitest';

/**
 * Checks a sandbox's PDF is a well-formed PDF a reader opens: the header, the trailer, `startxref`
 * pointing at the cross-reference table, and every object's offset in that table pointing at the object.
 * Returns the file as text (it is ASCII) for the test to read its content.
 */
export function expectValidPdf(body: Buffer): string {
  const text = body.toString('latin1');
  expect(text.startsWith('%PDF-1.')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  const xref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(text)?.[1]);
  expect(text.slice(xref, xref + 4)).toBe('xref');
  const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  expect(offsets.length).toBeGreaterThan(0);
  offsets.forEach((o, i) => expect(text.slice(o).startsWith(`${i + 1} 0 obj`), `object ${i + 1}`).toBe(true));
  return text;
}
