/**
 * A small valid PDF 1.4 of one A4 page with a few lines of text, as the sandboxes serve where a vendor
 * serves a document's PDF: a catalog, a page tree, one page, its Helvetica font and its content stream,
 * and a cross-reference table whose offsets are the objects' real byte offsets (ASCII only, so bytes and
 * characters are the same). Text outside printable ASCII is replaced, and `(`, `)` and `\` are escaped.
 */
export function minimalPdf(lines: readonly string[]): string {
  const text = lines.map((l, i) => `BT /F1 12 Tf 56 ${780 - i * 18} Td (${escapeText(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

function escapeText(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').replace(/([()\\])/g, '\\$1');
}
