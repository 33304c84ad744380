/**
 * `require` of one CommonJS file through V8's code cache: compiling the agent worker's engine bundle was about half
 * of the CPU each agent spends loading its engine at its first delivery (~12 ms). The build writes the cache beside
 * the file (`<file>.v8cache`: scripts/bundleWorkers.mjs calls `writeCodeCache` in a fresh Node), and every worker
 * compiles from it instead of from the text. V8 refuses a cache from another Node version or under other V8 flags,
 * but it checks the text only by its length: the cache file starts with the SHA-256 of the text it was made from, so
 * a file changed since (even to the same length) is compiled from its text. A refused cache is never an error, only
 * the time of a plain `require`. (Node 20 has no such cache of its own; `module.enableCompileCache` came with Node 22.)
 *
 * The file runs as Node runs a CommonJS module (the same wrapper and arguments) and must not use `import()`: a
 * script compiled here has no loader for it (the engine bundle's lazy dependencies are `require`d).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** How a load went: compiled from the cache, the cache refused (compiled from the text), or no cache file. */
export type CodeCacheUse = 'accepted' | 'rejected' | 'none';

/** The cache file of `file`. */
export function codeCacheFile(file: string): string {
  return `${file}.v8cache`;
}

const HASH_BYTES = 32;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The V8 data of `file`'s cache when it was made from `text`; undefined without a cache, null for another text. */
function readCache(file: string, text: string): Buffer | null | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(codeCacheFile(file));
  } catch {
    return undefined;
  }
  return stored.length > HASH_BYTES && stored.subarray(0, HASH_BYTES).equals(sha256(text)) ? stored.subarray(HASH_BYTES) : null;
}

type ModuleBody = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;

/** Compiles `text` (from `cachedData` when V8 accepts it) and runs it as the CommonJS module `file`. */
function run(file: string, text: string, cachedData: Buffer | undefined): { exports: unknown; script: Script } {
  const script = new Script(Module.wrap(text), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  (script.runInThisContext() as ModuleBody).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return { exports: module.exports, script };
}

/** `require(file)` through its code cache when V8 accepts it; the exports and how the cache was used. */
export function codeCachedRequire(file: string): { exports: unknown; cache: CodeCacheUse } {
  const text = readFileSync(file, 'utf8');
  const cachedData = readCache(file, text);
  const { exports, script } = run(file, text, cachedData ?? undefined);
  if (cachedData === undefined) return { exports, cache: 'none' };
  return { exports, cache: cachedData === null || script.cachedDataRejected === true ? 'rejected' : 'accepted' };
}

/**
 * Build step: runs `file` once and writes its code cache (after the run, so it also holds what the module's own
 * start compiled). Call it in a fresh Node without V8 flags: the cache is only accepted under the same. Returns its size.
 */
export function writeCodeCache(file: string): number {
  const text = readFileSync(file, 'utf8');
  const data = run(file, text, undefined).script.createCachedData();
  writeFileSync(codeCacheFile(file), Buffer.concat([sha256(text), data]));
  return data.length;
}
