import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The runbook the alerts link to (`runbook_url`): docs/operations.md, shipped in the image. */
export const RUNBOOK_FILE = join('docs', 'operations.md');

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The runbook as one HTML page: each Markdown heading becomes a heading with its anchor (so
 * `/runbook#erpsyncpullstale` opens at that alert), the text between headings stays as written, in a
 * <pre>. No Markdown renderer: the page is read in an incident, and plain text is enough.
 */
export function renderRunbook(markdown: string): string {
  const parts: string[] = [];
  let block: string[] = [];
  const flush = (): void => {
    if (block.some((l) => l.trim() !== '')) parts.push(`<pre>${escapeHtml(block.join('\n').trim())}</pre>`);
    block = [];
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!heading) {
      block.push(line);
      continue;
    }
    flush();
    const level = heading[1]!.length;
    const text = heading[2]!;
    parts.push(`<h${level} id="${escapeHtml(headingAnchor(text))}">${escapeHtml(text)}</h${level}>`);
  }
  flush();
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>erp-sync runbook</title>',
    '<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;font-size:.9rem}</style>',
    '</head><body>',
    ...parts,
    '</body></html>',
  ].join('\n');
}

let page: string | undefined;

/** The rendered runbook of this build, read once. */
export function runbookPage(): string {
  page ??= renderRunbook(readFileSync(join(packageRoot(), RUNBOOK_FILE), 'utf8'));
  return page;
}
