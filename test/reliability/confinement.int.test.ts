/**
 * Confinement escapes (reliability suite): the file, grep and fd tools get seeded hostile paths — `..` chains,
 * absolute paths, symlinks out of the work folder (to a file, a directory, a dangling target), loops, a fifo,
 * NUL bytes, encoded separators — for every operation, including writes, moves and removes. Held when nothing
 * outside the work folder is read, listed, created, changed or removed (the outside tree's hash is unchanged and
 * its secret never appears in a reply) and no call throws.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fileTool, FILE_OPS } from '../../src/core/tools/file.js';
import { grepTool } from '../../src/core/tools/grep.js';
import { fdTool } from '../../src/core/tools/fd.js';
import { bodyOf, hashTree, makeSandbox, toolCtx, type Sandbox } from '../core/tools/fixtures.js';
import { pick, seeded, Tally } from './support/tally.js';

const TRIES = 60;
const SECRET = 'OUTSIDE-SECRET-4be1c2';
let box: Sandbox;
beforeAll(() => {
  box = makeSandbox();
  writeFileSync(join(box.outside, 'secret.txt'), `${SECRET}\n`);
});
afterAll(() => box.cleanup());

function hostilePath(next: () => number): string {
  const ups = '../'.repeat(1 + pick(next, 6));
  const pool = [
    `${ups}outside/secret.txt`,
    `${ups}outside`,
    join(box.outside, 'secret.txt'),
    box.outside,
    '/etc/passwd',
    'toOutside',
    'dirOut/secret.txt',
    'dirOut',
    'dangling/new.txt',
    'loop1',
    'sub/../../outside/secret.txt',
    `sub/${ups}outside/x.txt`,
    'inLink/../../outside/secret.txt',
    '..%2Foutside%2Fsecret.txt',
    'sub\\..\\..\\outside\\secret.txt',
    'a.txt\0../../outside/secret.txt',
    '~/../outside/secret.txt',
    'fifo',
    `./${ups}`,
  ];
  return pool[pick(next, pool.length)]!;
}

describe('reliability: confinement escapes', () => {
  it(`${TRIES} seeded hostile paths over every file op, grep and fd leave the outside untouched and unread`, { timeout: 120_000 }, async () => {
    const tally = new Tally('confinement-escapes');
    const next = seeded(6);
    const outsideBefore = hashTree(box.outside);
    for (let i = 0; i < TRIES; i += 1) {
      const path = hostilePath(next);
      const to = hostilePath(next);
      const op = FILE_OPS[pick(next, FILE_OPS.length)]!;
      const ctx = toolCtx(box, { runApproval: 'auto-approve' });
      const calls: Array<[string, () => Promise<unknown>]> = [
        [`file ${op} ${JSON.stringify(path)} → ${JSON.stringify(to)}`, () => fileTool.call({ op, path, to, content: 'pwned', overwrite: true }, ctx)],
        [`grep ${JSON.stringify(path)}`, () => grepTool.call({ pattern: 'SECRET', path }, ctx)],
        [`fd ${JSON.stringify(path)}`, () => fdTool.call({ pattern: 'secret', path }, ctx)],
      ];
      for (const [label, call] of calls) {
        let why: string | null = null;
        try {
          const body = bodyOf((await call()) as string);
          if (body.includes(SECRET)) why = 'the outside secret is in the reply';
        } catch (error) {
          why = `threw ${error instanceof Error ? error.message : String(error)}`;
        }
        if (why === null && hashTree(box.outside) !== outsideBefore) why = 'the outside tree changed';
        tally.check(`try ${i}: ${label}`, why);
      }
    }
    tally.check('the outside secret file is intact', readFileSync(join(box.outside, 'secret.txt'), 'utf8') === `${SECRET}\n` ? null : 'changed');
    tally.finish(TRIES * 3);
  });
});
