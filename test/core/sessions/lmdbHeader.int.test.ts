/**
 * The pre-open header check against real files written by lmdb: valid, empty, absent, and damaged
 * variants. A damaged file handed to lmdb-js segfaults the process, so every damaged case must be caught here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLmdbFile, judgeLmdbHeader, type LmdbHeaderVerdict } from '../../../src/core/sessions/lmdbHeader.js';

let dir: string;
let valid: Buffer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-lmdbhead-'));
  const env = open({ path: path.join(dir, 'real.mdb'), overlappingSync: false, maxDbs: 4 });
  const db = env.openDB<unknown, string>({ name: 'records' });
  for (let i = 0; i < 200; i += 1) void db.put(`k${i}`, { i, pad: 'x'.repeat(200) });
  await db.committed;
  await env.close();
  valid = fs.readFileSync(path.join(dir, 'real.mdb'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function withMagicBroken(bytes: Buffer, page: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32LE(0x12345678, page * 4096 + 24);
  return copy;
}

describe('judgeLmdbHeader', () => {
  const cases: [string, () => Buffer, LmdbHeaderVerdict][] = [
    ['a file lmdb wrote', () => valid, 'ok'],
    ['an empty file', () => Buffer.alloc(0), 'empty'],
    ['garbage', () => Buffer.alloc(64 * 1024, 0x5a), 'not_lmdb'],
    ['zeros', () => Buffer.alloc(64 * 1024), 'not_lmdb'],
    ['a few bytes', () => Buffer.from('hello'), 'not_lmdb'],
    ['first meta magic broken', () => withMagicBroken(valid, 0), 'not_lmdb'],
    ['second meta magic broken', () => withMagicBroken(valid, 1), 'not_lmdb'],
    ['cut after the meta pages', () => valid.subarray(0, 3 * 4096), 'truncated'],
    ['cut inside the second meta page', () => valid.subarray(0, 4096 + 100), 'truncated'],
  ];
  it.each(cases)('%s', (_name, bytes, expected) => {
    const b = bytes();
    expect(judgeLmdbHeader(b.subarray(0, 2 * 65536), b.length)).toBe(expected);
  });

  it('checkLmdbFile reads real files and reports a missing one as absent', () => {
    expect(checkLmdbFile(path.join(dir, 'real.mdb'))).toBe('ok');
    expect(checkLmdbFile(path.join(dir, 'missing.mdb'))).toBe('absent');
  });
});
