/** Node's compiled-code cache of this test run (vitest.config.ts), for a child started with a bare environment. */
export function compileCache(): { NODE_COMPILE_CACHE?: string } {
  const dir = process.env.NODE_COMPILE_CACHE;
  return dir ? { NODE_COMPILE_CACHE: dir } : {};
}
