import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { requireBinary } from '../../ops/support/require-binary.js';
import { REPO_ROOT } from '../../support/repo-paths.js';

/** Where the console tests write their screenshots: a scratch folder, so a run leaves the tree clean; UPDATE_SCREENSHOTS=1 writes docs/console/. */
export const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(REPO_ROOT, 'docs/console')
    : join(tmpdir(), `erp-sync-console-${process.pid}`);

/**
 * The system Chromium, headless, with one laptop-sized page whose script errors are collected into `errors`.
 * `ignoreHTTPSErrors`: the page accepts a certificate no CA it knows signed (a test's own TLS proxy).
 */
export async function openConsoleBrowser(
  errors: string[],
  options: { ignoreHTTPSErrors?: boolean } = {},
): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: requireBinary('chromium', 'chromium'),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 }, ...options });
  page.on('pageerror', (e) => errors.push(e.message));
  return { browser, page };
}
