import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root, where tests run commands from. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The built CLI (`npm run build` first): what tests run as a user would. */
export const CLI = join(REPO_ROOT, 'dist/cli/main.js');
