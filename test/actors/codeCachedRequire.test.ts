/**
 * Loading a CommonJS file through V8's code cache (the agent worker's engine, codeCachedRequire.ts): the module runs
 * as `require` would run it, the cache written for it is used, and a cache that does not fit (damaged, or written
 * for another text) is refused by V8 and the file still loads from its text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCacheFile, codeCachedRequire, writeCodeCache } from '../../src/actors/codeCachedRequire.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function moduleFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-codecache-'));
  dirs.push(dir);
  const file = join(dir, 'mod.cjs');
  writeFileSync(file, text);
  writeFileSync(join(dir, 'helper.cjs'), 'module.exports = (n) => n * 2;');
  return file;
}

const SOURCE = `
const double = require('./helper.cjs');
exports.answer = double(21);
exports.where = [__filename, __dirname];
exports.self = this === module.exports;
function later(x) { return x + 1; }
exports.later = later;
`;

describe('codeCachedRequire', () => {
  it('runs the file as a CommonJS module: exports, require beside it, __filename, __dirname, this', () => {
    const file = moduleFile(SOURCE);
    const { exports, cache } = codeCachedRequire(file);
    expect(cache).toBe('none');
    expect(exports).toMatchObject({ answer: 42, where: [file, file.slice(0, -'/mod.cjs'.length)], self: true });
    expect((exports as { later(x: number): number }).later(1)).toBe(2);
  });

  it('compiles from the cache the build wrote', () => {
    const file = moduleFile(SOURCE);
    expect(writeCodeCache(file)).toBeGreaterThan(0);
    const { exports, cache } = codeCachedRequire(file);
    expect(cache).toBe('accepted');
    expect(exports).toMatchObject({ answer: 42 });
  });

  it('a damaged cache, or one written for another text, is refused and the file loads from its text', () => {
    const file = moduleFile(SOURCE);
    writeFileSync(codeCacheFile(file), Buffer.from('not a code cache at all'));
    expect(codeCachedRequire(file)).toMatchObject({ cache: 'rejected', exports: { answer: 42 } });

    // The same length: V8's own check (the text's length) would take this cache and run the old code.
    writeCodeCache(file);
    writeFileSync(file, SOURCE.replace('double(21)', 'double(22)'));
    expect(codeCachedRequire(file)).toMatchObject({ cache: 'rejected', exports: { answer: 44 } });
  });
});
