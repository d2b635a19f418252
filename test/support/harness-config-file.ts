import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { Cleanups } from './cleanups.js';

/**
 * The raw config as a YAML file (secrets stay `${VAR}` references), for CLI children; written on first
 * use into a temporary folder that `cleanups` removes after everything else.
 */
export function configFileOf(cleanups: Cleanups, name: string, raw: unknown): () => Promise<string> {
  let file: Promise<string> | undefined;
  return () =>
    (file ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), `${name}-`));
      cleanups.addLast(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'erp-sync.yaml'), toYaml(raw));
      return join(dir, 'erp-sync.yaml');
    })());
}
