import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * The Lua scripts of our Redis state, one `.lua` file each under ./lua/ (copied next to the compiled
 * JavaScript by `npm run build`). Named like BullMQ's: `<name>-<number of keys>.lua`, or `<name>-n.lua` for
 * a script that takes one key per record it is given (every key still declared, as a Cluster requires;
 * all of them in one connection's hash slot). Shared pieces live
 * in ./lua/includes/ and are pulled in by a line `--- @include "<name>"` (each at most once per script,
 * nested includes first), so every rule is written once.
 *
 * A script is read from disk once per process, then run by its SHA1 (EVALSHA); a Redis that does not
 * know it yet (restarted, or a new connection to another node) gets the source once (EVAL).
 */
const LUA_DIR = new URL('./lua/', import.meta.url);
const INCLUDE = /^--- @include "([a-z0-9-]+)"\s*$/gm;

export class LuaScript {
  private constructor(
    readonly name: string,
    /** undefined: any number (a `-n` script). */
    readonly numberOfKeys: number | undefined,
    readonly source: string,
    readonly sha1: string,
  ) {}

  private static readonly loaded = new Map<string, LuaScript>();

  /** The script `lua/<name>.lua`, e.g. `put-if-not-older-1`, read and resolved once. */
  static load(name: string): LuaScript {
    let script = LuaScript.loaded.get(name);
    if (script) return script;
    const keys = /-(\d+|n)$/.exec(name);
    if (!keys) throw new Error(`Lua script name "${name}" does not end with its number of keys (or -n)`);
    const source = resolveIncludes(readFileSync(new URL(`${name}.lua`, LUA_DIR), 'utf8'), new Set());
    script = new LuaScript(
      name,
      keys[1] === 'n' ? undefined : Number(keys[1]),
      source,
      createHash('sha1').update(source).digest('hex'),
    );
    LuaScript.loaded.set(name, script);
    return script;
  }

  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number> = []): Promise<unknown> {
    if (this.numberOfKeys !== undefined && keys.length !== this.numberOfKeys)
      throw new Error(`${this.name} takes ${this.numberOfKeys} key(s), got ${keys.length}`);
    try {
      return await redis.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

function resolveIncludes(source: string, included: Set<string>): string {
  return source.replace(INCLUDE, (_line, name: string) => {
    if (included.has(name)) return '';
    included.add(name);
    return resolveIncludes(readFileSync(new URL(`includes/${name}.lua`, LUA_DIR), 'utf8'), included);
  });
}
