import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isInside, noWorkDirText, resolveCreatable, resolveInWorkDir } from '../../../src/core/tools/confinement.js';
import { hashTree, makeSandbox, type Sandbox } from './fixtures.js';

let box: Sandbox;
let before: string;
beforeAll(() => {
  box = makeSandbox();
  before = hashTree(box.outside);
});
afterAll(() => {
  expect(hashTree(box.outside)).toBe(before);
  box.cleanup();
});

/** [label, rel, refusal text fragment] — each must be refused by both resolvers. */
const escapes: Array<[string, unknown, RegExp]> = [
  ['dot-dot escape', '../outside/secret.txt', /outside the work folder/],
  ['dot-dot through a subfolder', 'sub/../../outside/secret.txt', /outside the work folder/],
  ['bare dot-dot', '..', /outside the work folder/],
  ['absolute path', '/etc/passwd', /Absolute path/],
  ['windows absolute path', 'C:\\Windows\\win.ini', /Absolute path/],
  ['zero-width dot-dot', '..\u200b/x', /invisible/],
  ['bidi override', 'a\u202etxt.exe', /invisible/],
  ['newline in name', 'a\nb.txt', /control or invisible/],
  ['NUL byte', 'a.txt\0.png', /control or invisible/],
  ['not a string', 42, /must be a string/],
  ['symlink loop', 'loop1', /symlink/],
  ['fifo', 'fifo', /not a regular file/],
];

describe('resolveInWorkDir', () => {
  const extra: Array<[string, unknown, RegExp]> = [
    ['file symlink to outside', 'toOutside', /outside the work folder/],
    ['dir symlink escape', 'dirOut/secret.txt', /outside the work folder/],
    ['missing file', 'nope.txt', /not found/],
  ];
  it.each([...escapes, ...extra])('refuses %s', async (_label, rel, text) => {
    const out = await resolveInWorkDir(box.root, rel, 'en');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.refusal).toMatch(text);
  });

  const allowed: Array<[string, string]> = [
    ['a.txt', 'a.txt'],
    ['sub/b.txt', 'sub/b.txt'],
    ['inLink', 'a.txt'],
    ['sub/../a.txt', 'a.txt'],
    ['', '.'],
    ['./sub', 'sub'],
  ];
  it.each(allowed)('allows %j', async (rel, expected) => {
    const out = await resolveInWorkDir(box.root, rel, 'en');
    expect(out).toEqual({ ok: true, path: join(realpathSync(box.root), expected) });
  });

  it('says to ask the user when there is no work folder (ja and en)', async () => {
    expect(await resolveInWorkDir(null, 'a.txt', 'en')).toEqual({ ok: false, refusal: noWorkDirText('en') });
    const ja = await resolveInWorkDir(null, 'a.txt', 'ja');
    expect(ja.ok || ja.refusal).toMatch(/作業フォルダ/);
  });
});

describe('resolveCreatable', () => {
  const extra: Array<[string, unknown, RegExp]> = [
    ['existing symlink target', 'inLink', /symlink/],
    ['symlink to outside', 'toOutside', /symlink/],
    ['dir symlink escape', 'dirOut/new.txt', /outside the work folder/],
    ['deep dir symlink escape', 'dirOut/x/y/new.txt', /outside the work folder/],
    ['through a dangling symlink', 'dangling/new.txt', /broken symlink/],
    ['through a loop', 'loop1/new.txt', /symlink loop/],
    ['the root itself', '.', /work folder itself/],
  ];
  it.each([...escapes, ...extra])('refuses %s', async (_label, rel, text) => {
    const out = await resolveCreatable(box.root, rel, 'en');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.refusal).toMatch(text);
  });

  const allowed: Array<[string, string]> = [
    ['new.txt', 'new.txt'],
    ['sub/deep/er/new.txt', 'sub/deep/er/new.txt'],
    ['sub/b.txt', 'sub/b.txt'],
    ['sub', 'sub'],
  ];
  it.each(allowed)('allows %j', async (rel, expected) => {
    const out = await resolveCreatable(box.root, rel, 'en');
    expect(out).toEqual({ ok: true, path: join(realpathSync(box.root), expected) });
  });
});

describe('isInside', () => {
  const cases: Array<[string, string, boolean]> = [
    ['/w', '/w', true],
    ['/w', '/w/a', true],
    ['/w', '/w2', false],
    ['/w', '/', false],
    ['/w', '/w/..a', true],
  ];
  it.each(cases)('%s ⊇ %s = %s', (root, target, expected) => expect(isInside(root, target)).toBe(expected));
});
