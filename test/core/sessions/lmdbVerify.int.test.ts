/**
 * The structural walk of sessions.mdb against real files written by lmdb: valid stores of several shapes pass,
 * and damaged copies fail with a reason. A damaged file handed to lmdb-js kills the process, so the damage that
 * matters (page headers, node bounds, tree shape, the meta pages) must be caught here. Damage the walk does not
 * see (bytes inside values, unused pages) is proved harmless to lmdb by the reliability suite's store rounds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLmdbFile } from '../../../src/core/sessions/lmdbVerify.js';

let dir: string;
let valid: Buffer;
const PAGE = 4096;

async function writeStore(file: string, fill: (records: ReturnType<ReturnType<typeof open>['openDB']>) => Promise<void>): Promise<void> {
  const env = open({ path: file, overlappingSync: false, maxDbs: 4 });
  env.openDB<unknown, string>({ name: 'sessions' });
  const records = env.openDB<unknown, [string, number]>({ name: 'records' });
  await fill(records);
  await env.close();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-lmdbwalk-'));
  await writeStore(path.join(dir, 'real.mdb'), async (db) => {
    for (let i = 0; i < 600; i += 1) void db.put(['s', i], { i, pad: 'x'.repeat((i * 37) % 900) });
    await db.committed;
  });
  valid = fs.readFileSync(path.join(dir, 'real.mdb'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function verdictOf(bytes: Buffer): ReturnType<typeof verifyLmdbFile> {
  const file = path.join(dir, `case-${Math.random().toString(16).slice(2)}.mdb`);
  fs.writeFileSync(file, bytes);
  try {
    return verifyLmdbFile(file);
  } finally {
    fs.rmSync(file);
  }
}

/** Offset of the meta page lmdb picks (the higher txnid). */
function newestMeta(bytes: Buffer): number {
  return bytes.readBigUInt64LE(152) >= bytes.readBigUInt64LE(PAGE + 152) ? 0 : PAGE;
}

/**
 * Reachable tree pages of a valid file, read by hand from the layout: the main tree's root (a leaf here), then the
 * roots of the named databases its nodes hold. Old copies of pages (copy-on-write) stay in the file unreachable,
 * so damaging just any branch- or leaf-looking page would prove nothing.
 */
function treePages(bytes: Buffer): number[] {
  const mainRoot = Number(bytes.readBigUInt64LE(newestMeta(bytes) + 24 + 24 + 48 + 40));
  const roots = [mainRoot];
  const page = mainRoot * PAGE;
  const count = bytes.readUInt16LE(page + 20) / 2;
  for (let i = 0; i < count; i += 1) {
    const node = page + bytes.readUInt16LE(page + 24 + 2 * i) + 24;
    const data = node + 8 + bytes.readUInt16LE(node + 6);
    const root = bytes.readBigUInt64LE(data + 40);
    if (root !== 2n ** 64n - 1n) roots.push(Number(root));
  }
  return roots;
}

describe('verifyLmdbFile on stores lmdb wrote', () => {
  const shapes: [string, (db: ReturnType<ReturnType<typeof open>['openDB']>) => Promise<void>][] = [
    ['two empty databases', async () => undefined],
    ['one record', async (db) => void (await db.put(['s', 1], { a: 1 }))],
    [
      'values on overflow pages, and deletions (free-page tree)',
      async (db) => {
        for (let i = 0; i < 300; i += 1) void db.put(['s', i], { pad: 'y'.repeat((i * 131) % 12_000) });
        await db.committed;
        for (let i = 0; i < 300; i += 3) void db.remove(['s', i]);
        await db.committed;
        await db.put(['big', 1], { pad: 'z'.repeat(400_000) });
      },
    ],
  ];
  it.each(shapes)('%s → ok', async (name, fill) => {
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}.mdb`);
    await writeStore(file, fill);
    expect(verifyLmdbFile(file).state).toBe('ok');
  });

  it('the 600-record store is ok and every tree page is counted; absent and empty files are told apart', () => {
    const verdict = verifyLmdbFile(path.join(dir, 'real.mdb'));
    expect(verdict.state).toBe('ok');
    expect(verdict.state === 'ok' && verdict.pages).toBeGreaterThan(treePages(valid).length);
    expect(verifyLmdbFile(path.join(dir, 'missing.mdb')).state).toBe('absent');
    expect(verdictOf(Buffer.alloc(0)).state).toBe('empty');
  });
});

describe('verifyLmdbFile on damaged copies', () => {
  const at = (bytes: Buffer, offset: number, value: number): Buffer => {
    const copy = Buffer.from(bytes);
    copy[offset] = value;
    return copy;
  };
  const tree = (): number[] => treePages(valid);
  const cases: [string, () => Buffer, RegExp][] = [
    ['garbage', () => Buffer.alloc(64 * 1024, 0x5a), /meta page|magic/],
    ['zeros', () => Buffer.alloc(64 * 1024), /meta page/],
    ['a few bytes', () => Buffer.from('hello'), /shorter than a meta page/],
    ['first meta magic broken', () => at(valid, 24, 0x11), /magic/],
    ['second meta magic broken', () => at(valid, PAGE + 24, 0x11), /second meta/],
    ['cut after the meta pages', () => valid.subarray(0, 3 * PAGE), /truncated|past the end/],
    ['cut inside the second meta page', () => valid.subarray(0, PAGE + 100), /truncated/],
    ['random bytes past the first 8 KiB', () => Buffer.concat([valid.subarray(0, 2 * PAGE), Buffer.alloc(valid.length - 2 * PAGE, 0xa7)]), /page|record/],
    ['a tree page zeroed', () => { const c = Buffer.from(valid); c.fill(0, tree()[0]! * PAGE, tree()[0]! * PAGE + PAGE); return c; }, /page/],
    ['a page number in a page header changed', () => at(valid, tree()[1]! * PAGE, valid[tree()[1]! * PAGE]! ^ 0x40), /another page number/],
    ['a branch or leaf page marked as an overflow page', () => at(valid, tree()[1]! * PAGE + 18, 0x04), /should be a (leaf|branch) page/],
    ['a node pointer sent outside the page', () => { const c = Buffer.from(valid); c.writeUInt16LE(0xfff0, tree()[0]! * PAGE + 24); return c; }, /outside the page|bad bounds|node/],
    ['page bounds crossed (lower > upper)', () => { const c = Buffer.from(valid); c.writeUInt16LE(0xffe, tree()[0]! * PAGE + 20); return c; }, /bad bounds/],
    ['newest meta points its main root past the last page', () => {
      const c = Buffer.from(valid);
      c.writeBigUInt64LE(BigInt(valid.length / PAGE + 50), newestMeta(c) + 24 + 24 + 48 + 40);
      return c;
    }, /outside the used pages|past the end/],
    ['newest meta claims more pages than the file has', () => {
      const c = Buffer.from(valid);
      c.writeBigUInt64LE(BigInt(valid.length / PAGE + 9), newestMeta(c) + 144);
      return c;
    }, /truncated/],
    ['a named database root sent to another page', () => {
      const c = Buffer.from(valid);
      const [root, named] = tree();
      const node = root! * PAGE + c.readUInt16LE(root! * PAGE + 24) + 24;
      c.writeBigUInt64LE(BigInt(named! === 2 ? 3 : 2), node + 8 + c.readUInt16LE(node + 6) + 40);
      return c;
    }, /page|depth|record/],
  ];
  it.each(cases)('%s → corrupt', (_name, bytes, reason) => {
    const verdict = verdictOf(bytes());
    expect(verdict.state).toBe('corrupt');
    expect(verdict.state === 'corrupt' ? verdict.reason : '').toMatch(reason);
  });
});
